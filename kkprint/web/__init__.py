"""The web pages: kkprint's second door (the first is :mod:`kkprint.cli`). One app factory with
the security rules every page keeps, shared templates and static files; the score pad
(:mod:`kkprint.web.pad`) and the deck studio live below it."""
