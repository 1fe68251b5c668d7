"""Outside-world adapters, one per service they talk to (the jobs that use them are one level up).

| module               | talks to                                   | used by                              |
|----------------------|--------------------------------------------|--------------------------------------|
| `websites/`          | submitted websites over HTTP (the crawler) | draft jobs; the submit-time URL guard |
| `anthropic_api.py`   | the Anthropic Messages API (model drafter) | draft jobs                           |
| `client_metadata.py` | OAuth clients' metadata documents (HTTPS)  | the OAuth server, through its port   |
| `smtp.py`            | an SMTP server                             | the outbox sender (`workers/mail.py`) |
| `redis_queue.py`     | Redis, through rq (the shared job queue)   | every job, with `launchdir worker`   |

The composition root (`launchdir/`) builds them from settings and hands them to whoever needs
them; `api/` reaches them only through ports (protocols) of its own.
"""
