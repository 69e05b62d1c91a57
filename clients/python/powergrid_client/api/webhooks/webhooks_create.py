from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.webhook import Webhook
from ...models.webhook_request import WebhookRequest
from ...types import Response


def _get_kwargs(
    *,
    body: WebhookRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/webhooks/",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | Webhook | None:
    if response.status_code == 201:
        response_201 = Webhook.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 406:
        response_406 = Error.from_dict(response.json())

        return response_406

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | Webhook]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: WebhookRequest,
) -> Response[Error | Webhook]:
    """Add a webhook

     Events are posted after each move commits, retried with backoff until the receiver answers 2xx;
    after 8 failures in a row the webhook is turned off and you get an email. Every post has
    X-PowerGrid-Delivery (the same id if a post is repeated) and X-PowerGrid-Event; the generic format
    is signed (see `secret`).

    Args:
        body (WebhookRequest): A webhook to add (the answer is ``games.shapes.Webhook``).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Webhook]
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
    body: WebhookRequest,
) -> Error | Webhook | None:
    """Add a webhook

     Events are posted after each move commits, retried with backoff until the receiver answers 2xx;
    after 8 failures in a row the webhook is turned off and you get an email. Every post has
    X-PowerGrid-Delivery (the same id if a post is repeated) and X-PowerGrid-Event; the generic format
    is signed (see `secret`).

    Args:
        body (WebhookRequest): A webhook to add (the answer is ``games.shapes.Webhook``).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Webhook
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: WebhookRequest,
) -> Response[Error | Webhook]:
    """Add a webhook

     Events are posted after each move commits, retried with backoff until the receiver answers 2xx;
    after 8 failures in a row the webhook is turned off and you get an email. Every post has
    X-PowerGrid-Delivery (the same id if a post is repeated) and X-PowerGrid-Event; the generic format
    is signed (see `secret`).

    Args:
        body (WebhookRequest): A webhook to add (the answer is ``games.shapes.Webhook``).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Webhook]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: WebhookRequest,
) -> Error | Webhook | None:
    """Add a webhook

     Events are posted after each move commits, retried with backoff until the receiver answers 2xx;
    after 8 failures in a row the webhook is turned off and you get an email. Every post has
    X-PowerGrid-Delivery (the same id if a post is repeated) and X-PowerGrid-Event; the generic format
    is signed (see `secret`).

    Args:
        body (WebhookRequest): A webhook to add (the answer is ``games.shapes.Webhook``).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Webhook
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
