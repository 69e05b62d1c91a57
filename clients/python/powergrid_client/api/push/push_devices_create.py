from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.push_device import PushDevice
from ...models.push_subscribe_request import PushSubscribeRequest
from ...types import Response


def _get_kwargs(
    *,
    body: PushSubscribeRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/me/push/",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | PushDevice | None:
    if response.status_code == 200:
        response_200 = PushDevice.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = PushDevice.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 406:
        response_406 = Error.from_dict(response.json())

        return response_406

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())

        return response_415

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = Error.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | PushDevice]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: PushSubscribeRequest,
) -> Response[Error | PushDevice]:
    """Add this browser (its PushSubscription.toJSON()); 200 if it was known

     A turn notice is then sent to it each time the game waits for you (paced as turn emails are: none
    while you have the game's page open). The notice says only `{"title", "body": "It is your turn in
    Power Grid game #N.", "url", "tag", "game"}`. A subscription the push service reports gone (404,
    410) is removed.

    Args:
        body (PushSubscribeRequest): A browser's push subscription (``PushSubscription.toJSON()``)
            and your choices.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PushDevice]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: PushSubscribeRequest,
) -> Error | PushDevice | None:
    """Add this browser (its PushSubscription.toJSON()); 200 if it was known

     A turn notice is then sent to it each time the game waits for you (paced as turn emails are: none
    while you have the game's page open). The notice says only `{"title", "body": "It is your turn in
    Power Grid game #N.", "url", "tag", "game"}`. A subscription the push service reports gone (404,
    410) is removed.

    Args:
        body (PushSubscribeRequest): A browser's push subscription (``PushSubscription.toJSON()``)
            and your choices.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PushDevice
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: PushSubscribeRequest,
) -> Response[Error | PushDevice]:
    """Add this browser (its PushSubscription.toJSON()); 200 if it was known

     A turn notice is then sent to it each time the game waits for you (paced as turn emails are: none
    while you have the game's page open). The notice says only `{"title", "body": "It is your turn in
    Power Grid game #N.", "url", "tag", "game"}`. A subscription the push service reports gone (404,
    410) is removed.

    Args:
        body (PushSubscribeRequest): A browser's push subscription (``PushSubscription.toJSON()``)
            and your choices.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PushDevice]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: PushSubscribeRequest,
) -> Error | PushDevice | None:
    """Add this browser (its PushSubscription.toJSON()); 200 if it was known

     A turn notice is then sent to it each time the game waits for you (paced as turn emails are: none
    while you have the game's page open). The notice says only `{"title", "body": "It is your turn in
    Power Grid game #N.", "url", "tag", "game"}`. A subscription the push service reports gone (404,
    410) is removed.

    Args:
        body (PushSubscribeRequest): A browser's push subscription (``PushSubscription.toJSON()``)
            and your choices.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PushDevice
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
