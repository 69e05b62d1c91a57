"""The per-device choice on the profile page without JavaScript (``accounts.settings_views``,
``templates/accounts/_push_devices.html``): each device listed with its switch and its removal;
switching one device off leaves the others' notices on (and the player's push flag with them);
a device that is not the reader's is "no such device" and changes nothing; English and
Japanese."""

from __future__ import annotations

import pytest
from pushservice import Browser

pytestmark = pytest.mark.django_db

WORDS = {
    "en": {
        "title": "Notifications on your devices",
        "on": "Turn notices: on (turn off)",
        "off": "Turn notices: off (turn on)",
        "saved": "Saved.",
        "removed": "The device was removed.",
        "none": "No such device.",
        "empty": "No device takes notices yet.",
    },
    "ja": {
        "title": "端末への通知",
        "on": "手番の通知:オン(オフにする)",
        "off": "手番の通知:オフ(オンにする)",
        "saved": "保存しました。",
        "removed": "端末を削除しました。",
        "none": "そのような端末はありません。",
        "empty": "通知を受け取る端末はまだありません。",
    },
}


def _device(player, name: str) -> int:
    body = {
        "endpoint": f"https://fcm.googleapis.com/fcm/send/{name}",
        "keys": Browser().keys(),
        "name": name,
    }
    r = player.post("/api/v1/me/push/", body)
    assert r.status_code == 201, r.content
    return int(r.json()["id"])


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_each_device_is_switched_and_removed_on_the_profile_page(make_player, client, vapid, lang):
    from accounts.models import Profile, PushSubscription

    words = WORDS[lang]
    me, stranger = make_player(), make_player()
    me.user.profile.language = lang
    me.user.profile.save()
    phone, laptop = _device(me, "Phone"), _device(me, "Laptop")
    theirs = _device(stranger, "Theirs")
    client.force_login(me.user)
    page = client.get("/accounts/profile/").content.decode()
    assert words["title"] in page
    assert page.count(words["on"]) == 2
    assert "Phone" in page
    assert "Laptop" in page
    assert "Theirs" not in page
    r = client.post("/accounts/profile/devices/", {"op": "off", "id": phone}, follow=True)
    body = r.content.decode()
    assert words["saved"] in body
    assert body.count(words["on"]) == 1
    assert body.count(words["off"]) == 1
    assert PushSubscription.objects.get(pk=phone).turns is False
    assert PushSubscription.objects.get(pk=laptop).turns is True
    assert Profile.objects.get(user=me.user).push_turns is True  # the laptop still takes them
    client.post("/accounts/profile/devices/", {"op": "off", "id": laptop})
    assert Profile.objects.get(user=me.user).push_turns is False
    client.post("/accounts/profile/devices/", {"op": "on", "id": phone})
    assert PushSubscription.objects.get(pk=phone).turns is True
    assert Profile.objects.get(user=me.user).push_turns is True
    # Someone else's device, a device that is not a number, an unknown operation: refused.
    for data in (
        {"op": "remove", "id": theirs},
        {"op": "off", "id": "x"},
        {"op": "zap", "id": phone},
        *({"op": "off", "id": v} for v in ("²", "٣", "9" * 30, f"0{phone}", f" {phone}", "")),
    ):
        r = client.post("/accounts/profile/devices/", data, follow=True)
        assert words["none"] in r.content.decode()
    assert PushSubscription.objects.get(pk=theirs).turns is True
    assert PushSubscription.objects.get(pk=phone).turns is True
    r = client.post("/accounts/profile/devices/", {"op": "remove", "id": phone}, follow=True)
    assert words["removed"] in r.content.decode()
    r = client.post("/accounts/profile/devices/", {"op": "remove", "id": laptop}, follow=True)
    assert words["empty"] in r.content.decode()
    assert not PushSubscription.objects.filter(user=me.user).exists()
    assert Profile.objects.get(user=me.user).push_turns is False
