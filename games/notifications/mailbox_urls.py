from django.urls import path

from . import mailbox

urlpatterns = [
    path("", mailbox.mailbox_index, name="dev_mailbox"),
    path("<str:key>/", mailbox.mailbox_detail, name="dev_mailbox_detail"),
]
