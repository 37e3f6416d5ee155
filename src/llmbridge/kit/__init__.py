"""The provider kit: the parts every provider wing is built from, built-in or a third party's.

A provider is a ``MessageConnector`` subclass (its request, reply and stream conversions and
its SDK's error mapping), the pure ``to_*`` / ``from_*`` functions and stream aggregator it calls
(built from ``prepare_conversation``, ``NoteRecorder``, ``speaker``, ``apply_name_policy``,
``ReplyParts`` / ``build_reply`` and ``ToolCallAccumulator``), and a provider agent
(``AgentMethods``, ``create_keywords`` / ``layer_create_settings`` / ``check_reserved`` /
``reply_settings`` / ``split_system_envelopes`` for its SDK call, ``raise_mapped`` and the error
helpers for its SDK's exceptions; ``output_json_schema`` / ``output_schema_name`` /
``strict_json_schema`` for structured output). The built-in providers import nothing else of
llmbridge's than the names here and in ``llmbridge``. ``import llmbridge.kit`` imports no
provider SDK.
"""

from __future__ import annotations

from llmbridge._agents import (
    AgentMethods,
    check_async_client,
    check_reserved,
    create_keywords,
    layer_create_settings,
)
from llmbridge._errors import (
    api_error_for_status,
    api_error_text,
    redact_secrets,
    retry_after_seconds,
)
from llmbridge._functions import combine_functions
from llmbridge._messages import (
    MediaPart,
    ToolResult,
    ToolResultPart,
    result_text,
    split_result,
    structured_text,
    text_or_parts,
)
from llmbridge._output import OutputSchema, output_json_schema, output_schema_name
from llmbridge.kit._agent import raise_mapped, reply_settings, split_system_envelopes
from llmbridge.kit._checks import (
    GOOGLE_FILE_URI,
    SUPPORTED_IMAGE_TYPES,
    TEXT_DOCUMENT_TYPES,
    TOOL_CHOICE_MODES,
    WEB_URL_SCHEMES,
    base64_size,
    check_document,
    check_image,
    check_text,
    checked_tool_choice,
    document_text,
    fetchable_url,
    media_kind,
    omitted_detail,
    unsupported_envelope,
    unsupported_media_url,
    unsupported_medium,
)
from llmbridge.kit._connector import MessageConnector
from llmbridge.kit._conversation import PreparedConversation, prepare_conversation
from llmbridge.kit._dispatch import MessageDispatcher
from llmbridge.kit._endpoints import (
    ENDPOINT_FIELD,
    endpoint_of,
    host_endpoint,
    same_endpoint,
    with_endpoint,
)
from llmbridge.kit._hosted import own_hosted_tools
from llmbridge.kit._importing import TurnImporter, Unmapped
from llmbridge.kit._names import NAME_PATTERN, sanitize_identifier, shorten_identifier
from llmbridge.kit._notes import NoteKind, NoteLog, NoteRecorder, log_notes
from llmbridge.kit._providers import (
    BUILTIN_PROVIDERS,
    ProviderInfo,
    ProviderWing,
    load_provider,
    provider_info,
    provider_tags,
    register_provider,
)
from llmbridge.kit._reply import ReplyParts, build_reply, partial_reply
from llmbridge.kit._request import ProviderRequest
from llmbridge.kit._scan_cache import ScanCache, clear_recent_scans
from llmbridge.kit._schema import STRICT_KEYWORDS, strict_json_schema
from llmbridge.kit._speaker import (
    NamePolicy,
    Speaker,
    apply_name_policy,
    check_name_policy,
    speaker,
)
from llmbridge.kit._stream import StreamAggregator
from llmbridge.kit._tool_calls import (
    CUT_ARGUMENTS_SHOWN,
    CutOffCalls,
    ToolCallAccumulator,
    call_ids,
    tool_call_id_or_fallback,
)
from llmbridge.kit._tool_ids import ToolIdRule
from llmbridge.kit._turns import RawTurn, RawTurnHook, generic_raw_turn

__all__ = [
    "BUILTIN_PROVIDERS",
    "CUT_ARGUMENTS_SHOWN",
    "ENDPOINT_FIELD",
    "GOOGLE_FILE_URI",
    "NAME_PATTERN",
    "STRICT_KEYWORDS",
    "SUPPORTED_IMAGE_TYPES",
    "TEXT_DOCUMENT_TYPES",
    "TOOL_CHOICE_MODES",
    "WEB_URL_SCHEMES",
    "AgentMethods",
    "CutOffCalls",
    "MediaPart",
    "MessageConnector",
    "MessageDispatcher",
    "NamePolicy",
    "NoteKind",
    "NoteLog",
    "NoteRecorder",
    "OutputSchema",
    "PreparedConversation",
    "ProviderInfo",
    "ProviderRequest",
    "ProviderWing",
    "RawTurn",
    "RawTurnHook",
    "ReplyParts",
    "ScanCache",
    "Speaker",
    "StreamAggregator",
    "ToolCallAccumulator",
    "ToolIdRule",
    "ToolResult",
    "ToolResultPart",
    "TurnImporter",
    "Unmapped",
    "api_error_for_status",
    "api_error_text",
    "apply_name_policy",
    "base64_size",
    "build_reply",
    "call_ids",
    "check_async_client",
    "check_document",
    "check_image",
    "check_name_policy",
    "check_reserved",
    "check_text",
    "checked_tool_choice",
    "clear_recent_scans",
    "combine_functions",
    "create_keywords",
    "document_text",
    "endpoint_of",
    "fetchable_url",
    "generic_raw_turn",
    "host_endpoint",
    "layer_create_settings",
    "load_provider",
    "log_notes",
    "media_kind",
    "omitted_detail",
    "output_json_schema",
    "output_schema_name",
    "own_hosted_tools",
    "partial_reply",
    "prepare_conversation",
    "provider_info",
    "provider_tags",
    "raise_mapped",
    "redact_secrets",
    "register_provider",
    "reply_settings",
    "result_text",
    "retry_after_seconds",
    "same_endpoint",
    "sanitize_identifier",
    "shorten_identifier",
    "speaker",
    "split_result",
    "split_system_envelopes",
    "strict_json_schema",
    "structured_text",
    "text_or_parts",
    "tool_call_id_or_fallback",
    "unsupported_envelope",
    "unsupported_media_url",
    "unsupported_medium",
    "with_endpoint",
]
