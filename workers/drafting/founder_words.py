"""The words that make someone a founder, in the languages the drafter reads: one list for the finder and the gate.

``FOUNDER_TITLE`` is a role ("Co-founder & CEO", "Mitgründerin", "Medgrundare &
vd", "współzałożycielka"); ``FOUNDING`` is a sentence saying the company was
founded ("founded in 2019 by", "von … gegründet", "fondata nel 2020 … da",
"grundades 2023 … av").  Both are regular-expression sources matched on
case-folded text.
"""

from __future__ import annotations

FOUNDER_TITLE = (
    r"co-?founder(?:s|in|innen)?|founders?|co-?creators?|founding (?:ceo|cto|partner)"
    r"|(?:mit)?gr(?:\u00fc|ue)nder(?:in|innen)?|co-?fundador(?:a|es|as)?|fundador(?:a|es|as)?"
    r"|co-?fondat(?:eur|rice)s?|fondat(?:eur|rice)s?|(?:mede)?oprichters?|(?:mede)?oprichtster|co-?fondator[ei]"
    r"|fondator[ei]|(?:med)?grundare|(?:med)?stiftere?|grundl(?:\u00e6|ae)ggere?"
    r"|(?:wsp\u00f3\u0142)?za\u0142o\u017cyciel(?:ka|ki|e)?"
    r"|(?:spolu)?zakladatel(?:ka|ky|\u00e9)?|perustaja(?:t)?|(?:t\u00e1rs)?alap\u00edt\u00f3(?:k|ja|i)?"
    # Romanian "cofondatoare", Norwegian "medgründer", an open-source project's "Creator"
    r"|(?:co)?fondat(?:or|oare|ori|oarele)|(?:med)?gr(?:\u00fc|u)nder|creators?|kurucu ortak|kurucu"
    # Slovak "spoluzakladateľka", Estonian "kaasasutaja"
    r"|(?:spolu)?zakladate\u013e(?:ka|ky)?|(?:kaas)?asutaja(?:d)?"
    # Lithuanian "bendraįkūrėja", Slovenian "soustanoviteljica"
    r"|(?:bendra)?\u012fk\u016br\u0117j(?:a|as|ai)|(?:sou)?stanovitelj(?:ica)?"
    # Croatian "suosnivačica", Greek "Συνιδρύτρια", "ιδρυτής"
    r"|(?:l\u012bdz)?dibin\u0101t\u0101j(?:s|a|i)|"  # Latvian "līdzdibinātāja"
    r"(?:su)?osniva\u010d(?:ica|i|ice)?|(?:συν)?ιδρυτ(?:\u03ae[\u03c2\u03c3]|\u03ad[\u03c2\u03c3])|(?:συν)?ιδρ\u03cd\u03c4ρια"
    # Indonesian "Salah satu pendiri", Ukrainian "співзасновниця"
    r"|pendiri|(?:\u0441\u043f\u0456\u0432)?\u0437\u0430\u0441\u043d\u043e\u0432\u043d\u0438(?:\u043a|\u0446\u044f|\u043a\u0438)"
)
# A leader's role, which a founding sentence's next clause often gives each founder: "Priyanka leads the company
# as CEO; Tomasz, our CTO, ...".
EXECUTIVE_ROLE = (
    r"ceo|cto|coo|cfo|cpo|chief [a-z]+ officer|managing director|gesch(?:\u00e4|ae)ftsf(?:\u00fc|ue)hrer(?:in)?"
    r"|directeur g\u00e9n\u00e9ral|directrice g\u00e9n\u00e9rale|director(?:a)? general|amministratore delegato"
    r"|directeur technique|directrice technique|director(?:a)? de tecnolog\u00eda|technischer? leiter(?:in)?"
    r"|amministratrice delegata|responsabile tecnic[oa]|direttore tecnico|direttrice tecnica|technical director"
    r"|pr\u00e9sidente?|presidente|presidenta|director(?:a)? t\u00e9cnic[oa]"
)
FOUNDING = (
    r"found(?:ed|ing)|gegr(?:\u00fc|ue)ndet|fondat[ao]|fond\u00e9e?s?|fundad[ao]s?|opgericht|grundade?s?|grundat"
    r"|za\u0142o\u017con[ay]|za\u0142o\u017cy(?:li\u015bmy|\u0142am|\u0142em|li|\u0142a|\u0142)"
    r"|alap\u00edtotta|alap\u00edtott\u00e1k|alap\u00edtottuk|alap\u00edtva|grunnlagt|grunnla|fondat\u0103|a fost fondat\u0103"
    r"|kurdu|kuruldu|kurduk|\u012fk\u016br\u0117|\u012fkurta|ustanovil[aei]?"
    # the founders' own verb: "La fundaron los hermanos …", "Ana la fundó en 2020", "fondarono"
    r"|fundaron|fund\u00f3|fondarono|fundaram|dibin\u0101ja|dibin\u0101t[sa]|dibin\u0101j\u0101m"
    r"|osnovali|osnovala|osnovao|osnovan[ao]?|\u03b9\u03b4\u03c1\u03cd\u03b8\u03b7\u03ba\u03b5|\u03af\u03b4\u03c1\u03c5\u03c3\u03b1\u03bd"
    # Indonesian "didirikan … oleh", Ukrainian "заснована", "заснували"
    r"|didirikan|mendirikan|\u0437\u0430\u0441\u043d\u043e\u0432\u0430\u043d[\u0430\u043e\u0438\u0439]|\u0437\u0430\u0441\u043d\u0443\u0432\u0430\u043b\u0438"
)
# The founders saying it themselves, after introducing themselves: "We started Soapbox in 2021", "Wir gründeten …"
FOUNDING_WE = (
    r"we (?:started|founded|co-founded)|wir gr(?:\u00fc|ue)ndeten|gr(?:\u00fc|ue)ndeten wir|nous avons (?:fond\u00e9|cr\u00e9\u00e9)"
    r"|fundamos|fund\u00e1mos|fondammo|abbiamo fondato|hemos fundado|we richtten|startade vi|vi startade"
)
# A timeline's present tense: "2019 · Anna Berg and Li Wei found Acme", "Anna Berg gründet Acme" ("found" alone is
# also the past of "find", so only after a second name)
FOUNDING_NOW = (
    r"founds|co-founds|gr(?:\u00fc|ue)nden|gr(?:\u00fc|ue)ndet|fondent|fonde|fundan|funda|fondano|fonda|grundar|fundam"
    # a timeline's "… crean Farolillo en Zaragoza", "A and B, both freelance translators, found Wharfinger"
    r"|crean|cr\u00e9ent|creano|criam"
    # … or in the past with "started": "Ruth Adeyemi and Callum Pryce started Teakettle in Leeds"
    r"|(?:and|&)\s+[\w\u00c0-\u024f'-]+\s+[\w\u00c0-\u024f'-]+(?:,[^,.;!?]{1,60},)?\s+(?:(?:co-)?found|started)"
)

