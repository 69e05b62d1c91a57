from django.urls import path

from games.inbox.views import dev_reply

from . import mailbox

urlpatterns = [
    path("", mailbox.mailbox_index, name="dev_mailbox"),
    path("<str:key>/", mailbox.mailbox_detail, name="dev_mailbox_detail"),
    path("<str:key>/reply/", dev_reply, name="dev_mailbox_reply"),
]
