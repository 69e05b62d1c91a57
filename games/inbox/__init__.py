"""Playing from the inbox: a turn email's Reply-To carries a signed token; a reply's first lines
are read as a move (``parse``) and made through the one move service (``receive``).

Mail reaches ``receive.mail_receive`` by two paths: a provider's inbound webhook (django-anymail,
signature checked: ``views``) and ``manage.py receive_mail`` for an MTA's pipe delivery. The dev
mailbox page feeds replies through the same function.
"""
