"""gemini_client: a real google.genai.Client answered by a respx router, with no network."""

from __future__ import annotations

from typing import Any

import pytest
import respx
from google.genai import types
from google.oauth2 import credentials

from llmbridge.testing import gemini_client, gemini_response, last_request_json
from tests.gemini.helpers import GEMINI_API, GENERATE, MODEL

VERTEX_MODEL_PATH = "/v1beta1/projects/p/locations/us-central1/publishers/google/models/" + MODEL


@pytest.fixture(autouse=True)
def no_google_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The SDK reads keys, projects and base URLs from the environment: none may leak in."""
    for name in (
        "GOOGLE_API_KEY",
        "GEMINI_API_KEY",
        "GOOGLE_CLOUD_PROJECT",
        "GOOGLE_CLOUD_LOCATION",
        "GOOGLE_GENAI_USE_VERTEXAI",
        "GOOGLE_GENAI_API_VERSION",
        "GOOGLE_GEMINI_BASE_URL",
        "GOOGLE_VERTEX_BASE_URL",
        "GOOGLE_APPLICATION_CREDENTIALS",
    ):
        monkeypatch.delenv(name, raising=False)


async def test_the_request_is_recorded_with_url_key_and_json_body(router: respx.Router) -> None:
    route = router.post(url__regex=GENERATE).respond(json=gemini_response("ok"))
    config = types.GenerateContentConfig(
        system_instruction="Be brief.",
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
    )

    await gemini_client(router, api_key="k-1").aio.models.generate_content(
        model=MODEL, contents="hi", config=config
    )

    request = route.calls.last.request
    assert str(request.url) == GEMINI_API + ":generateContent"
    assert request.headers["x-goog-api-key"] == "k-1"
    assert last_request_json(route) == {
        "contents": [{"parts": [{"text": "hi"}], "role": "user"}],
        "systemInstruction": {"parts": [{"text": "Be brief."}], "role": "user"},
        "generationConfig": {},
    }


@pytest.mark.parametrize(
    ("kwargs", "url", "auth"),
    [
        pytest.param(
            {"project": "p", "location": "us-central1"},
            "https://us-central1-aiplatform.googleapis.com" + VERTEX_MODEL_PATH,
            ("authorization", "Bearer test-token"),
            id="project and location: a fixed bearer token, no Google credentials lookup",
        ),
        pytest.param(
            {},
            "https://aiplatform.googleapis.com/v1beta1/publishers/google/models/" + MODEL,
            ("x-goog-api-key", "test-key"),
            id="no project: Vertex AI express mode with the API key",
        ),
    ],
)
async def test_a_vertex_client_is_answered_by_the_router(
    kwargs: dict[str, Any], url: str, auth: tuple[str, str], router: respx.Router
) -> None:
    route = router.post(url__regex=GENERATE).respond(json=gemini_response("ok"))
    client = gemini_client(router, vertexai=True, **kwargs)

    await client.aio.models.generate_content(model=MODEL, contents="hi")

    request = route.calls.last.request
    assert str(request.url) == url + ":generateContent"
    assert request.headers[auth[0]] == auth[1]
    assert client.vertexai is True


async def test_given_credentials_are_used_for_a_vertex_client(router: respx.Router) -> None:
    route = router.post(url__regex=GENERATE).respond(json=gemini_response("ok"))
    client = gemini_client(
        router,
        vertexai=True,
        project="p",
        location="us-central1",
        credentials=credentials.Credentials(token="mine"),
    )

    await client.aio.models.generate_content(model=MODEL, contents="hi")

    assert route.calls.last.request.headers["authorization"] == "Bearer mine"


@pytest.mark.parametrize(
    "http_options",
    [
        pytest.param({"api_version": "v1beta", "headers": {"x-test": "1"}}, id="a dict"),
        pytest.param(types.HttpOptions(api_version="v1beta", headers={"x-test": "1"}), id="model"),
    ],
)
async def test_given_http_options_are_kept_beside_the_transport(
    http_options: Any, router: respx.Router
) -> None:
    route = router.post(url__regex=GENERATE).respond(json=gemini_response("ok"))

    await gemini_client(router, http_options=http_options).aio.models.generate_content(
        model=MODEL, contents="hi"
    )

    request = route.calls.last.request
    assert request.url.path == f"/v1beta/models/{MODEL}:generateContent"
    assert request.headers["x-test"] == "1"


def test_the_given_http_options_are_not_mutated(router: respx.Router) -> None:
    http_options = types.HttpOptions(async_client_args={"timeout": 5})

    gemini_client(router, http_options=http_options)

    assert http_options.async_client_args == {"timeout": 5}
    assert http_options.client_args is None


def test_the_sync_client_refuses_instead_of_reaching_the_network(router: respx.Router) -> None:
    route = router.post(url__regex=GENERATE).respond(json=gemini_response("ok"))
    client = gemini_client(router)  # kept: a collected Client closes its HTTP clients

    with pytest.raises(RuntimeError, match=r"answers only the async client \(client\.aio\)"):
        client.models.generate_content(model=MODEL, contents="hi")

    assert not route.called
