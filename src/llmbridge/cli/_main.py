"""The ``llmbridge`` command line (also ``python -m llmbridge``): ``demo`` and ``convert``.

Every failure the user can fix is one ``error: ...`` line on stderr and exit code 2 (a provider
failing during the demo: exit code 1); no traceback. Provider SDKs load only when a command
needs them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
from collections.abc import Sequence
from typing import IO, Any, Final

from llmbridge import __version__
from llmbridge._errors import InvalidMessageError, LLMBridgeError, UnsupportedMessageError
from llmbridge._messages import Message
from llmbridge._messages._serialization import load_messages
from llmbridge.cli._demo import (
    DEFAULT_MODELS,
    KEY_VARIABLES,
    MODEL_VARIABLES,
    PROVIDERS,
    DemoSettings,
    models_from,
    run_demo,
)
from llmbridge.kit._notes import ConversionNote
from llmbridge.kit._providers import BUILTIN_PROVIDERS, load_provider

__all__ = ["main"]

# Offline streams arrive at once; at a terminal they are paced so a reader sees them stream.
_TERMINAL_CHUNK_DELAY: Final = 0.02
# A missing module -> the extra that installs it: each wing's SDK, and the test kit's HTTP mocks.
_EXTRAS: Final = {
    **{info.package.split(".")[-1]: info.extra for info in BUILTIN_PROVIDERS},
    "respx": "testing",
    "httpx": "testing",
}

Converted = tuple[dict[str, Any], tuple[ConversionNote, ...]]
NEUTRAL: Final = "neutral"
"""The ``--from`` of a conversation written by ``llmbridge.dump_messages``."""


def _conversation(text: str, args: argparse.Namespace) -> list[Message]:
    """The neutral messages of the input: neutral JSON, or a payload of ``--from``'s shape.

    A provider message without a neutral form passes through as an envelope only back to its
    own provider; for another target (or with ``--strict``) it is an error naming its index.
    """
    if args.source == NEUTRAL:
        return load_messages(text)
    try:
        payload = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise InvalidMessageError(f"not valid JSON ({type(error).__name__}: {error})") from None
    if not isinstance(payload, dict):
        raise InvalidMessageError(
            f"--from {args.source} reads a JSON object (what --to {args.source} writes), "
            f"got {type(payload).__name__}"
        )
    return load_provider(args.source).import_payload(
        payload, agent_name=args.agent_name, strict_mode=args.strict or args.source != args.to
    )


def _request_payload(messages: list[Message], args: argparse.Namespace) -> Converted:
    return load_provider(args.to).request_payload(
        messages,
        agent_name=args.agent_name,
        strict_mode=args.strict,
        name_policy=args.name_policy,
    )


def _fail(message: str, code: int = 2) -> int:
    print(f"error: {' '.join(message.split())}", file=sys.stderr)
    return code


def _missing_module(error: ImportError) -> int:
    module = (error.name or "").split(".")[0]
    if module not in _EXTRAS:
        return _fail(str(error))
    return _fail(f"{module} is not installed: pip install 'llmbridge[{_EXTRAS[module]}]'")


def _read(source: str) -> str:
    if source == "-":
        return sys.stdin.read()
    with open(source, encoding="utf-8") as file:
        return file.read()


def _note_line(note: ConversionNote) -> str:
    where = f"message {note.index}" if note.index is not None else "request"
    return f"note: {where} {note.kind}: {note.detail}"


def _convert(args: argparse.Namespace) -> int:
    """``llmbridge convert``: neutral JSON (or a provider's payload) in, a request payload out."""
    try:
        messages = _conversation(_read(args.file), args)
        payload, notes = _request_payload(messages, args)
    except (InvalidMessageError, UnsupportedMessageError) as error:
        return _fail(str(error))
    except OSError as error:
        return _fail(f"cannot read {args.file}: {error.strerror or error}")
    except UnicodeDecodeError as error:
        return _fail(f"{args.file} is not UTF-8 text ({error.reason})")
    except ImportError as error:
        return _missing_module(error)
    for note in notes:
        print(_note_line(note), file=sys.stderr)
    json.dump(payload, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def chunk_delay(out: IO[str], live: bool) -> float:
    """Seconds between offline stream frames: paced at a terminal, none when piped or live."""
    return _TERMINAL_CHUNK_DELAY if not live and out.isatty() else 0.0


def _model_option(tag: str) -> str:
    return f"{tag.replace('-', '_')}_model"


def command_name(argv0: str) -> str:
    """How the user started us, to repeat in hints: the script path, or ``python -m llmbridge``."""
    return argv0 if os.path.basename(argv0) == "llmbridge" else "python -m llmbridge"


def _demo(args: argparse.Namespace) -> int:
    """``llmbridge demo``: the scripted conversation through each chosen provider."""
    providers = PROVIDERS if args.provider == "all" else (args.provider,)
    if args.live:
        # Two wings of one vendor share a key (OpenAI Chat and Responses): named once.
        keys = dict.fromkeys(KEY_VARIABLES[p] for p in providers)
        missing = [key for key in keys if not os.environ.get(key)]
        if missing:
            names = " and ".join(missing)
            return _fail(
                f"--live needs {names}, which {'is' if len(missing) == 1 else 'are'} not set; "
                "export it, or leave out --live to run offline"
            )
    settings = DemoSettings(
        providers,
        stream=not args.no_stream,
        live=args.live,
        models=models_from({tag: getattr(args, _model_option(tag)) for tag in PROVIDERS}),
        chunk_delay=chunk_delay(sys.stdout, args.live),
        command=command_name(sys.argv[0]),
    )
    try:
        asyncio.run(run_demo(settings, sys.stdout))
    except LLMBridgeError as error:
        return _fail(f"{type(error).__name__}: {error}", code=1)
    except ImportError as error:
        return _missing_module(error)
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="llmbridge",
        description="One neutral message language for agent code, translated to every "
        f"provider ({', '.join(PROVIDERS)}).",
        epilog="example:\n  llmbridge demo --provider all\n"
        "  llmbridge convert --to anthropic examples/conversation.json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"llmbridge {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    demo = commands.add_parser(
        "demo",
        help="run a scripted conversation through each provider (offline by default)",
        description="Run one conversation (system prompt, a question with an image, two "
        "parallel tool calls, the answer) through each provider with the same agent code, "
        "printing the neutral messages, the exact JSON requests and the replies.",
        epilog=f"example:\n  llmbridge demo --provider {PROVIDERS[0]} --no-stream",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    demo.add_argument("--provider", choices=[*PROVIDERS, "all"], default="all")
    demo.add_argument("--no-stream", action="store_true", help="use send() instead of stream()")
    demo.add_argument(
        "--live",
        action="store_true",
        help=f"call the real APIs ({' / '.join(KEY_VARIABLES.values())} must be set)",
    )
    for provider in PROVIDERS:
        demo.add_argument(
            f"--{provider}-model",
            metavar="MODEL",
            help=f"model for --live (default: ${MODEL_VARIABLES[provider]}, "
            f"else {DEFAULT_MODELS[provider]})",
        )
    demo.set_defaults(run=_demo)
    convert = commands.add_parser(
        "convert",
        help="convert a conversation to a provider's request payload",
        description="Read a conversation, neutral JSON (written by llmbridge.dump_messages) or "
        "a saved history of a provider (--from, the payload --to writes), and print the "
        "provider's request payload as JSON. Conversion notes go to stderr; invalid input "
        "exits with code 2 and one error line.",
        epilog=f"example:\n  llmbridge convert --to {PROVIDERS[-1]} --name-policy prefix "
        "examples/conversation.json\n"
        f"  llmbridge convert --from openai --to {PROVIDERS[-1]} "
        "examples/openai_history.json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    convert.add_argument("--to", choices=PROVIDERS, required=True)
    convert.add_argument(
        "--from",
        dest="source",
        choices=[NEUTRAL, *PROVIDERS],
        default=NEUTRAL,
        help="the input: neutral JSON (default), or a provider's saved history in the shape "
        "--to of that provider writes; a message without a neutral form is an error naming "
        "its index, unless it goes back to its own provider; notes count the messages after "
        "the import (consecutive tool results are one)",
    )
    convert.add_argument(
        "--agent-name", default="assistant", metavar="NAME", help="(default: %(default)s)"
    )
    convert.add_argument(
        "--strict", action="store_true", help="fail instead of dropping or renaming"
    )
    convert.add_argument(
        "--name-policy",
        choices=["drop", "prefix"],
        default="drop",
        help="Anthropic: drop other agents' names (default), or write each as a '[name] ' "
        "prefix before the text; OpenAI carries names in its 'name' field and ignores this",
    )
    convert.add_argument(
        "file", nargs="?", default="-", metavar="FILE", help="a file, or - for stdin (default)"
    )
    convert.set_defaults(run=_convert)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit code.

    Exit codes: 0 success; 1 a provider failed during the demo, or stdout was closed early; 2
    invalid input or usage (one ``error:`` line on stderr); 130 interrupted.
    """
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        code: int = args.run(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _silence_stdout()
        return 1
    return code


def _silence_stdout() -> None:
    """The reader went away (``| head``): stop quietly, as Unix tools do, with no flush error."""
    # Best effort: if stdout cannot be redirected either, there is nothing left to protect.
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
