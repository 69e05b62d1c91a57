from django.urls import path

from . import webhooks

urlpatterns = [
    path("mailgun/", webhooks.MailgunEvents.as_view(), name="mail_events_mailgun"),
    path("postmark/", webhooks.PostmarkEvents.as_view(), name="mail_events_postmark"),
    path("sendgrid/", webhooks.SendGridEvents.as_view(), name="mail_events_sendgrid"),
    path("amazon_ses/", webhooks.AmazonSESEvents.as_view(), name="mail_events_amazon_ses"),
    path("brevo/", webhooks.BrevoEvents.as_view(), name="mail_events_brevo"),
]
