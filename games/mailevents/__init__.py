"""Emails that do not arrive: what the providers' tracking webhooks (``webhooks``) and the
receiving mail systems' delivery status notifications to our bounce address (``verp``,
``dsn``, ``bounces``, called by ``games.inbox.receive``) report, recorded and acted on in one place
(``services``); the last day's bounce and complaint rates (``rates``). What an undeliverable
address means for the player is ``accounts.deliverability``'s."""
