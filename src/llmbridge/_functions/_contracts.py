"""Function contracts: the tools a model may call, and how Python functions become them.

``FunctionContract`` is the neutral description of a tool (each provider maps it to its own
``tools`` format). ``FunctionContract.from_function`` and the ``@function`` decorator derive one
from a Python function: the JSON schema of its parameters comes from the type hints (pydantic),
the descriptions from its docstring (Google, reST/Sphinx, NumPy or Epydoc, read with
docstring_parser). ``PythonFunction`` keeps the pydantic model
built on the way, so that ``FunctionCallMiddleware`` validates a model's arguments against the
very schema the model was shown.
"""

from __future__ import annotations

import inspect
import json
import re
import textwrap
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Final, TypeVar, overload

import docstring_parser
import pydantic
from docstring_parser import epydoc, google, numpydoc, rest
from pydantic.fields import FieldInfo
from pydantic.json_schema import GenerateJsonSchema

__all__ = [
    "ArgumentsError",
    "FunctionContract",
    "PythonFunction",
    "combine_functions",
    "function",
    "validate_function_name",
]

F = TypeVar("F", bound=Callable[..., Any])

_MARK: Final = "__llmbridge_function__"
# Google-style sections beyond docstring_parser's defaults, so that their text never ends up in
# the description; only the keyword-argument ones describe parameters.
_GOOGLE_SECTIONS: Final = (
    *google.DEFAULT_SECTIONS,
    *(
        google.Section(title, "param", google.SectionType.MULTIPLE)
        for title in ("Keyword Args", "Keyword Arguments")
    ),
    google.Section("Other Parameters", "other_param", google.SectionType.MULTIPLE),
    *(
        google.Section(title, "note", google.SectionType.SINGULAR)
        for title in ("Note", "Notes", "References", "See Also", "Todo", "Warning", "Warnings")
    ),
    google.Section("Return", "returns", google.SectionType.SINGULAR_OR_MULTIPLE),
    google.Section("Yield", "yields", google.SectionType.SINGULAR_OR_MULTIPLE),
)
_GOOGLE_TITLES: Final = frozenset(section.title for section in _GOOGLE_SECTIONS)
_UNDESCRIBABLE: Final = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
_MAX_SHOWN: Final = 60  # characters of a rejected value quoted back to the model
_JSON_TYPE_NAMES: Final[Mapping[type, str]] = {
    list: "an array",
    str: "a string",
    int: "a number",
    float: "a number",
    bool: "a boolean",
    type(None): "null",
}


FUNCTION_NAME_PATTERN: Final = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
"""The names every provider accepts for a function (tool)."""


def validate_function_name(name: str) -> str:
    """Return ``name`` when it is a valid function name, ``^[a-zA-Z0-9_-]{1,64}$``.

    Raises ``ValueError`` naming the rule otherwise (both providers reject other names).
    """
    if not isinstance(name, str) or FUNCTION_NAME_PATTERN.fullmatch(name) is None:
        raise ValueError(
            f"invalid function name {name!r}: use 1 to 64 letters, digits, '_' or '-' "
            "(pattern ^[a-zA-Z0-9_-]{1,64}$)"
        )
    return name


@dataclass(frozen=True, slots=True)
class FunctionContract:
    """A function a model may call: its name, a description, and the JSON schema of its arguments.

    ``parameters`` is the JSON schema of an object (``None``: no arguments). The name must match
    ``^[a-zA-Z0-9_-]{1,64}$``; another raises ``ValueError``. ``from_function`` builds a contract
    from a Python function.
    """

    name: str
    description: str | None = None
    parameters: Mapping[str, Any] | None = field(default=None, hash=False)

    def __post_init__(self) -> None:
        validate_function_name(self.name)
        if self.parameters is not None and not isinstance(self.parameters, Mapping):
            raise TypeError(
                f"parameters of function {self.name!r} must be a JSON schema mapping, "
                f"got {type(self.parameters).__name__}"
            )

    @classmethod
    def from_function(
        cls, fn: Callable[..., Any], *, name: str | None = None, description: str | None = None
    ) -> FunctionContract:
        """Describe ``fn``: name, docstring description, and the JSON schema of its parameters.

        Rules: the name is ``fn.__name__`` unless given; the description is the docstring's
        text without its sections (Google ``Args:`` / ``Returns:`` ..., reST ``:param x:``,
        NumPy ``Parameters`` / ``----------``, Epydoc ``@param x:``) unless given; each
        parameter's schema comes from its type hint (pydantic: defaults, ``Optional``, enums,
        ``Literal``, nested pydantic models, dataclasses, lists) and its description from the
        docstring's entry for it, lines joined by spaces (a ``Field(description=...)`` in
        ``Annotated`` wins). The schema admits
        no other properties (``additionalProperties: false``), as the validation of the model's
        arguments does. A function marked with ``@function`` keeps the contract it was marked
        with.

        Raises ``ValueError`` for an invalid name, ``*args`` / ``**kwargs`` parameters, type
        hints that cannot be resolved, or types pydantic cannot describe.
        """
        return PythonFunction.of(fn, name=name, description=description).contract


def combine_functions(*groups: Iterable[FunctionContract] | None) -> list[FunctionContract]:
    """Concatenate groups of contracts in order; when two share a name, the first one wins.

    Provider agents pass their constructor functions first, then the per-call ones.
    """
    seen: set[str] = set()
    combined: list[FunctionContract] = []
    for group in groups:
        for contract in group or ():
            if contract.name not in seen:
                seen.add(contract.name)
                combined.append(contract)
    return combined


class ArgumentsError(ValueError):
    """A model's arguments for a Python function are not valid JSON or fail validation."""


class _NoFieldTitles(GenerateJsonSchema):
    """Leaves out the ``title`` pydantic derives from each field name: it repeats the key."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False


class PythonFunction:
    """A Python function, its contract, and the pydantic model that validates its arguments.

    Build one with ``PythonFunction.of(fn)`` (it reuses the one ``@function`` attached).
    ``bind(arguments_json)`` turns a model's JSON arguments into ``(args, kwargs)`` for ``fn``.
    """

    __slots__ = ("_model", "_parameters", "contract", "fn")

    def __init__(
        self, fn: Callable[..., Any], *, name: str | None = None, description: str | None = None
    ) -> None:
        function_name = validate_function_name(_callable_name(fn) if name is None else name)
        try:
            signature = inspect.signature(fn)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"cannot read the signature of {function_name}: {exc}") from exc
        summary, documented = _parse_docstring(inspect.getdoc(fn))
        hints = _type_hints(fn, function_name)
        self._parameters = tuple(signature.parameters.values())
        fields: dict[str, Any] = {}
        # Fields get neutral names and the parameter name as alias, so that parameters such as
        # ``model_config`` or ``json`` never clash with BaseModel's own attributes.
        for position, parameter in enumerate(self._parameters):
            if parameter.kind in _UNDESCRIBABLE:
                raise ValueError(
                    f"{function_name}: parameter {parameter.name!r} ({parameter}) cannot be "
                    "described in a JSON schema; take explicit parameters instead"
                )
            hint = hints.get(parameter.name, Any)
            fields[f"p{position}"] = (hint, _field(parameter, hint, documented))
        try:
            self._model = pydantic.create_model(
                function_name, __config__=pydantic.ConfigDict(extra="forbid"), **fields
            )
            schema = self._model.model_json_schema(by_alias=True, schema_generator=_NoFieldTitles)
        except pydantic.PydanticUserError as exc:
            raise ValueError(f"cannot describe the parameters of {function_name}: {exc}") from exc
        schema.pop("title", None)  # the function name, already the contract's name
        self.fn = fn
        self.contract = FunctionContract(
            function_name, description if description is not None else summary, schema
        )

    @classmethod
    def of(
        cls, fn: Callable[..., Any], *, name: str | None = None, description: str | None = None
    ) -> PythonFunction:
        """Return ``fn``'s ``PythonFunction``: the one ``@function`` attached, or a new one.

        A bound method (or a ``functools.wraps`` wrapper) of a marked function shows the mark
        of the function underneath: it is described anew, as itself (no ``self`` parameter),
        keeping the marked name and description unless others are given.
        """
        marked = getattr(fn, _MARK, None)
        if not isinstance(marked, PythonFunction):
            return cls(fn, name=name, description=description)
        if marked.fn is fn and name is None and description is None:
            return marked
        return cls(
            fn,
            name=marked.contract.name if name is None else name,
            description=marked.contract.description if description is None else description,
        )

    def bind(self, arguments_json: str) -> tuple[list[Any], dict[str, Any]]:
        """Parse and validate ``arguments_json``; return the positional and keyword arguments.

        An empty string means no arguments. Raises ``ArgumentsError`` (a sentence naming the
        function and the arguments at fault) for invalid JSON, JSON that is not an object,
        unknown arguments and values that fail validation.
        """
        name = self.contract.name
        try:
            data = json.loads(arguments_json) if arguments_json.strip() else {}
        except json.JSONDecodeError as exc:
            raise ArgumentsError(f"Invalid JSON arguments for function {name!r}: {exc}.") from exc
        if not isinstance(data, dict):
            kind = _JSON_TYPE_NAMES.get(type(data), type(data).__name__)
            raise ArgumentsError(
                f"Arguments for function {name!r} must be a JSON object, got {kind}."
            )
        try:
            validated = self._model.model_validate(data)
        except pydantic.ValidationError as exc:
            raise ArgumentsError(
                f"Invalid arguments for function {name!r}: {_describe_errors(exc)}."
            ) from exc
        args: list[Any] = []
        kwargs: dict[str, Any] = {}
        for position, parameter in enumerate(self._parameters):
            value = getattr(validated, f"p{position}")
            if parameter.kind is inspect.Parameter.POSITIONAL_ONLY:
                args.append(value)
            else:
                kwargs[parameter.name] = value
        return args, kwargs

    def __repr__(self) -> str:
        return f"PythonFunction({self.contract.name!r})"


@overload
def function(fn: F, /) -> F: ...
@overload
def function(*, name: str | None = None, description: str | None = None) -> Callable[[F], F]: ...
def function(
    fn: F | None = None, /, *, name: str | None = None, description: str | None = None
) -> F | Callable[[F], F]:
    """Mark a function as a tool: ``@function`` or ``@function(name=..., description=...)``.

    The function is returned unchanged (still callable as before), with its contract built at
    once, so a bad name or an undescribable parameter fails at decoration time (``ValueError``,
    see ``FunctionContract.from_function``). ``FunctionContract.from_function`` and
    ``FunctionCallMiddleware`` reuse the attached contract. Raises ``TypeError`` for an object
    that takes no attributes.
    """

    def mark(target: F) -> F:
        described = PythonFunction(target, name=name, description=description)
        try:
            setattr(target, _MARK, described)
        except AttributeError as exc:
            raise TypeError(
                f"@function cannot mark {target!r}: it takes no attributes; "
                "pass it to FunctionCallMiddleware directly instead"
            ) from exc
        return target

    return mark if fn is None else mark(fn)


def _callable_name(fn: Callable[..., Any]) -> str:
    name = getattr(fn, "__name__", None)
    if not isinstance(name, str):
        raise ValueError(f"{fn!r} has no __name__; give the function a name explicitly")
    return name


def _type_hints(fn: Callable[..., Any], function_name: str) -> dict[str, Any]:
    # Callable objects keep their hints on __call__; functions on themselves.
    target = fn if inspect.isroutine(fn) else getattr(fn, "__call__", fn)  # noqa: B004
    try:
        return typing.get_type_hints(target, include_extras=True)
    except Exception as exc:  # NameError, TypeError ...: any unresolvable annotation
        raise ValueError(f"cannot resolve the type hints of {function_name}: {exc}") from exc


def _field(parameter: inspect.Parameter, hint: Any, documented: Mapping[str, str]) -> FieldInfo:
    extra: dict[str, Any] = {}
    description = documented.get(parameter.name)
    # Passing description=None would erase one given by a Field inside Annotated.
    if description is not None and not _has_own_description(hint):
        extra["description"] = description
    info: FieldInfo
    if parameter.default is inspect.Parameter.empty:
        info = pydantic.Field(alias=parameter.name, **extra)
    else:
        info = pydantic.Field(parameter.default, alias=parameter.name, **extra)
    return info


def _has_own_description(hint: Any) -> bool:
    if typing.get_origin(hint) is not Annotated:
        return False
    return any(
        isinstance(item, FieldInfo) and item.description is not None for item in hint.__metadata__
    )


def _parse_docstring(doc: str | None) -> tuple[str | None, dict[str, str]]:
    """Split a docstring into its description and its parameters' descriptions.

    Google, reST (Sphinx), NumPy and Epydoc styles are read with docstring_parser; the style
    that finds the most sections wins (Google on a tie). The description is the text before the
    sections; a parameter's description has its lines joined with single spaces.
    """
    if not doc or not doc.strip():
        return None, {}
    text = _reindent_opening_section(doc)
    parsed = [result for parse in _PARSERS if (result := _parse_or_none(parse, text)) is not None]
    if not parsed:
        return doc.strip(), {}
    best = max(parsed, key=lambda result: len(result.meta))
    summary = (best.description or "").strip() or None
    params = {param.arg_name: " ".join((param.description or "").split()) for param in best.params}
    return summary, {name: text for name, text in params.items() if text}


def _reindent_opening_section(doc: str) -> str:
    """Give back their indentation to the entries of a section that opens the docstring.

    ``inspect.cleandoc`` dedents every line but the first, so an ``Args:`` on the first line
    leaves its entries at the margin, where no parser reads them as entries. The leading
    newline keeps docstring_parser's own ``cleandoc`` from doing the same again.
    """
    first, _, rest = doc.partition("\n")
    title = first.strip()
    if title.endswith(":") and title[:-1] in _GOOGLE_TITLES:
        return f"\n{title}\n{textwrap.indent(rest, '    ')}"
    return doc


def _parse_or_none(
    parse: Callable[[str], docstring_parser.Docstring], text: str
) -> docstring_parser.Docstring | None:
    # A style whose rules the text breaks is not that style: the other parsers decide.
    try:
        return parse(text)
    except docstring_parser.ParseError:
        return None


# The Google parser keeps no state between calls (its sections and pattern are set up once).
_PARSERS: Final[tuple[Callable[[str], docstring_parser.Docstring], ...]] = (
    google.GoogleParser(sections=list(_GOOGLE_SECTIONS)).parse,
    rest.parse,
    numpydoc.parse,
    epydoc.parse,
)


def _describe_errors(exc: pydantic.ValidationError) -> str:
    parts = []
    for error in exc.errors(include_url=False):
        location = ".".join(str(item) for item in error["loc"]) or "arguments"
        kind = error["type"]
        if kind == "extra_forbidden":
            parts.append(f"{location}: unexpected argument")
        elif kind == "missing":
            parts.append(f"{location}: {error['msg']}")
        else:
            # Values come from JSON (repr covers odd validator inputs); long ones are cut short.
            given = json.dumps(error["input"], ensure_ascii=False, default=repr)
            given = given if len(given) <= _MAX_SHOWN else given[: _MAX_SHOWN - 3] + "..."
            parts.append(f"{location}: {error['msg']} (got {given})")
    return "; ".join(parts)
