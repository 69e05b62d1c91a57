"""Reports as mail systems write them (RFC 3464 DSNs, RFC 5965 complaints, out-of-office
replies), addressed to a bounce address."""

from __future__ import annotations

import base64
import quopri
import time


def dsn(
    to: str,
    recipient: str,
    *,
    action: str = "failed",
    status: str = "5.1.1",
    diagnostic: str = "smtp; 550 5.1.1 <{r}>: Recipient address rejected: User unknown",
    mid: str | None = None,
    encoded: bool = False,
    part_type: str = "message/delivery-status",
    transfer: str = "",
) -> bytes:
    """A Postfix-style delivery status notification for one recipient. ``encoded``: the status
    part in base64 (``transfer``: another Content-Transfer-Encoding, ``quoted-printable``);
    ``part_type``: ``message/global-delivery-status`` for an internationalized DSN (RFC 6533)."""
    mid = mid or f"<dsn{time.time_ns()}@mx.example.net>"
    fields = (
        "Reporting-MTA: dns; mx.example.net\r\n"
        "Arrival-Date: Thu, 26 Nov 2026 01:00:00 +0000 (UTC)\r\n\r\n"
        f"Final-Recipient: rfc822; {recipient}\r\n"
        f"Original-Recipient: rfc822;{recipient}\r\n"
        f"Action: {action}\r\nStatus: {status}\r\n"
        "Remote-MTA: dns; mail.example.com\r\n"
        f"Diagnostic-Code: {diagnostic.format(r=recipient)}\r\n"
    )
    if encoded or transfer == "base64":
        part = (
            f"Content-Type: {part_type}\r\nContent-Transfer-Encoding: base64\r\n\r\n"
            + base64.encodebytes(fields.encode()).decode().replace("\n", "\r\n")
        )
    elif transfer == "quoted-printable":
        body = quopri.encodestring(fields.encode()).decode()
        part = f"Content-Type: {part_type}\r\nContent-Transfer-Encoding: {transfer}\r\n\r\n{body}"
    else:
        part = f"Content-Type: {part_type}\r\n\r\n{fields}"
    return (
        "Return-Path: <>\r\n"
        "From: Mail Delivery System <MAILER-DAEMON@mx.example.net>\r\n"
        f"To: {to}\r\nSubject: Undelivered Mail Returned to Sender\r\n"
        f"Message-ID: {mid}\r\nAuto-Submitted: auto-replied\r\nMIME-Version: 1.0\r\n"
        'Content-Type: multipart/report; report-type=delivery-status; boundary="B"\r\n\r\n'
        "--B\r\nContent-Type: text/plain\r\n\r\nYour message could not be delivered.\r\n\r\n"
        f"--B\r\n{part}\r\n"
        "--B\r\nContent-Type: text/rfc822-headers\r\n\r\n"
        f"From: Power Grid <noreply@localhost>\r\nTo: {recipient}\r\n"
        "Subject: [Power Grid] Your turn\r\n\r\n--B--\r\n"
    ).encode()


def arf(to: str, recipient: str, *, feedback: str = "abuse") -> bytes:
    """A mailbox provider's feedback-loop complaint (RFC 5965)."""
    return (
        "From: feedback@fbl.example.net\r\n"
        f"To: {to}\r\nSubject: Complaint about message\r\n"
        f"Message-ID: <arf{time.time_ns()}@fbl.example.net>\r\nMIME-Version: 1.0\r\n"
        'Content-Type: multipart/report; report-type=feedback-report; boundary="F"\r\n\r\n'
        "--F\r\nContent-Type: text/plain\r\n\r\nThis is an email abuse report.\r\n\r\n"
        "--F\r\nContent-Type: message/feedback-report\r\n\r\n"
        f"Feedback-Type: {feedback}\r\nUser-Agent: FBL/1.0\r\nVersion: 1\r\n"
        f"Original-Rcpt-To: {recipient}\r\n\r\n"
        "--F\r\nContent-Type: text/rfc822-headers\r\n\r\n"
        f"From: Power Grid <noreply@localhost>\r\nTo: {recipient}\r\n\r\n--F--\r\n"
    ).encode()


def out_of_office(to: str, sender: str) -> bytes:
    """An out-of-office reply sent to the return address (RFC 3834 says it should be)."""
    return (
        f"From: <{sender}>\r\nTo: {to}\r\nSubject: Out of office: [Power Grid] Your turn\r\n"
        f"Message-ID: <ooo{time.time_ns()}@example.com>\r\nAuto-Submitted: auto-replied\r\n"
        "Content-Type: text/plain\r\n\r\nI am away until Monday.\r\n"
    ).encode()
