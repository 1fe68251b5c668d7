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
)
FOUNDING = (
    r"found(?:ed|ing)|gegr(?:\u00fc|ue)ndet|fondat[ao]|fond\u00e9e?s?|fundad[ao]s?|opgericht|grundade?s?|grundat"
    r"|za\u0142o\u017con[ay]"
)
