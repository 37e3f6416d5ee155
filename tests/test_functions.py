"""FunctionContract, from_function, @function, and argument binding (API.md section 7)."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, Field

from llmbridge import FunctionContract, function
from llmbridge._functions import ArgumentsError, PythonFunction


class Unit(enum.Enum):
    CELSIUS = "celsius"
    FAHRENHEIT = "fahrenheit"


class Stop(BaseModel):
    """A place on the way."""

    city: str
    nights: int = 1


@dataclasses.dataclass
class Traveller:
    name: str
    age: int | None = None


def get_weather(city: str, unit: Unit = Unit.CELSIUS, days: int | None = None) -> str:
    """Get the weather forecast for a city.

    Args:
        city: The city, for example
            "Paris" or "Tokyo".
        unit (Unit): The temperature unit.
        days (int, optional): How many days ahead; today when omitted.

    Returns:
        The forecast as text.
    """
    return f"{city}: 18 {unit.value} for {days or 0} days"


def plan_trip(
    stops: list[Stop],
    travellers: list[Traveller],
    budget: Annotated[float, Field(gt=0, description="Total budget in euros.")],
    mode: Literal["train", "car"] = "train",
) -> dict[str, Any]:
    """Plan a trip through several stops.

    Args:
        stops: The stops, in order.
        travellers: Who travels.
        budget: Overridden by the Field description.
    """
    return {"stops": len(stops)}


def now() -> str:
    """Return the current time."""
    return "12:00"


async def search(query: str, *, limit: int = 10, tags: list[str] | None = None) -> list[str]:
    return [query] * limit


SCHEMA_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "docstring_enum_optional": get_weather,
    "nested_models_lists_literal_annotated": plan_trip,
    "no_parameters": now,
    "async_keyword_only_no_docstring": search,
}


@pytest.mark.parametrize("fn", SCHEMA_FUNCTIONS.values(), ids=SCHEMA_FUNCTIONS.keys())
def test_from_function_schema_matches_snapshot(fn: Callable[..., Any], snapshot: Any) -> None:
    contract = FunctionContract.from_function(fn)

    assert dataclasses.asdict(contract) == snapshot


def test_from_function_takes_name_and_description_from_the_function() -> None:
    contract = FunctionContract.from_function(get_weather)

    assert contract.name == "get_weather"
    assert contract.description == "Get the weather forecast for a city."
    assert contract.parameters is not None
    assert contract.parameters["required"] == ["city"]


def test_from_function_explicit_name_and_description_win() -> None:
    contract = FunctionContract.from_function(now, name="clock", description="What time is it?")

    assert (contract.name, contract.description) == ("clock", "What time is it?")


def test_annotated_field_description_wins_over_docstring() -> None:
    parameters = FunctionContract.from_function(plan_trip).parameters

    assert parameters is not None
    assert parameters["properties"]["budget"]["description"] == "Total budget in euros."
    assert parameters["properties"]["stops"]["description"] == "The stops, in order."


def _documented(doc: str) -> Callable[..., None]:
    def fn(a: int, b: str = "") -> None:
        return None

    fn.__doc__ = doc
    return fn


DOCSTRINGS = {
    "summary_only": ("Do it.", "Do it.", {}),
    "multi_paragraph_description_ends_at_first_section": (
        "Do it.\n\nCarefully.\n\nReturns:\n    Nothing.",
        "Do it.\n\nCarefully.",
        {},
    ),
    "args_with_types_and_continuations": (
        "Do it.\n\nArgs:\n    a (int): First,\n        continued.\n    b: Second (really).\n",
        "Do it.",
        {"a": "First, continued.", "b": "Second (really)."},
    ),
    "parameters_section_alias": (
        "Do it.\n\nParameters:\n    a: First.\n\nRaises:\n    b: not an argument.",
        "Do it.",
        {"a": "First."},
    ),
    "entry_without_text_gets_no_description": (
        "Args:\n    a:\n    b: Second.",
        None,
        {"b": "Second."},
    ),
    "indented_docstring_is_dedented": (
        "Do it.\n        \n        Args:\n            a: First.",
        "Do it.",
        {"a": "First."},
    ),
    "no_docstring": ("", None, {}),
    "google_keyword_args_describe_parameters": (
        "Do it.\n\nKeyword Args:\n    b: Second.",
        "Do it.",
        {"b": "Second."},
    ),
    "google_note_and_example_sections_stay_out_of_the_description": (
        "Do it.\n\nNote:\n    Carefully.\n\nExample:\n    fn(1)\n\nArgs:\n    a: First.",
        "Do it.",
        {"a": "First."},
    ),
    "text_without_sections_is_all_description": (
        "Do it\nwith care.\n\nTwice.",
        "Do it\nwith care.\n\nTwice.",
        {},
    ),
    "rest_sphinx_param_fields": (
        "Do it.\n\nCarefully.\n\n:param a: First,\n    continued.\n:type a: int\n"
        ":param str b: Second.\n:returns: Nothing.\n:raises ValueError: Never.",
        "Do it.\n\nCarefully.",
        {"a": "First, continued.", "b": "Second."},
    ),
    "numpy_underlined_parameters_section": (
        "Do it.\n\nCarefully.\n\nParameters\n----------\na : int\n    First,\n    continued.\n"
        "b : str, optional\n    Second.\n\nReturns\n-------\nNone\n    Nothing.",
        "Do it.\n\nCarefully.",
        {"a": "First, continued.", "b": "Second."},
    ),
    "epydoc_param_fields": (
        "Do it.\n\n@param a: First,\n    continued.\n@type a: int\n@param b: Second.\n"
        "@return: Nothing.",
        "Do it.",
        {"a": "First, continued.", "b": "Second."},
    ),
}


@pytest.mark.parametrize(
    ("doc", "description", "described"), DOCSTRINGS.values(), ids=DOCSTRINGS.keys()
)
def test_docstring_gives_descriptions(
    doc: str, description: str | None, described: dict[str, str]
) -> None:
    contract = FunctionContract.from_function(_documented(doc))

    assert contract.description == description
    assert contract.parameters is not None
    found = {
        name: prop["description"]
        for name, prop in contract.parameters["properties"].items()
        if "description" in prop
    }
    assert found == described


VALID_NAMES = ["a", "get_weather", "Get-Weather-2", "x" * 64]
INVALID_NAMES = {
    "empty": "",
    "space": "get weather",
    "dot": "tools.get_weather",
    "non_ascii": "météo",
    "too_long_65": "x" * 65,
    "trailing_newline": "get_weather\n",
}


@pytest.mark.parametrize("name", VALID_NAMES)
def test_valid_names_are_accepted(name: str) -> None:
    assert FunctionContract(name).name == name


@pytest.mark.parametrize("name", INVALID_NAMES.values(), ids=INVALID_NAMES.keys())
@pytest.mark.parametrize(
    "build",
    [
        FunctionContract,
        lambda name: FunctionContract.from_function(now, name=name),
        lambda name: function(name=name)(now),
    ],
    ids=["contract", "from_function", "decorator"],
)
def test_invalid_names_raise_value_error_naming_the_pattern(
    name: str, build: Callable[[str], object]
) -> None:
    with pytest.raises(ValueError, match=r"invalid function name .*\^\[a-zA-Z0-9_-\]\{1,64\}\$"):
        build(name)


def test_contract_is_frozen_hashable_and_equal_by_value() -> None:
    schema = {"type": "object", "properties": {}}
    first = FunctionContract("f", "d", schema)

    assert first == FunctionContract("f", "d", {"type": "object", "properties": {}})
    assert hash(first) == hash(FunctionContract("f", "d", None))
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.name = "g"  # type: ignore[misc]


def test_contract_parameters_must_be_a_mapping() -> None:
    with pytest.raises(TypeError, match="must be a JSON schema mapping"):
        FunctionContract("f", parameters=["not", "a", "schema"])  # type: ignore[arg-type]


def _var_positional(*values: int) -> None:
    return None


def _var_keyword(**options: str) -> None:
    return None


def _unresolvable(x: NoSuchType) -> None:  # type: ignore[name-defined]  # noqa: F821
    return None


class _Opaque:
    pass


def _undescribable(x: _Opaque) -> None:
    return None


UNDESCRIBABLE = {
    "var_positional": (_var_positional, "cannot be described in a JSON schema"),
    "var_keyword": (_var_keyword, "cannot be described in a JSON schema"),
    "unresolvable_hint": (_unresolvable, "cannot resolve the type hints"),
    "type_pydantic_cannot_describe": (_undescribable, "cannot describe the parameters"),
    "lambda_name": (lambda: None, "invalid function name '<lambda>'"),
}


@pytest.mark.parametrize(("fn", "message"), UNDESCRIBABLE.values(), ids=UNDESCRIBABLE.keys())
def test_undescribable_functions_raise_value_error(fn: Callable[..., Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        FunctionContract.from_function(fn)


def test_decorator_returns_the_function_unchanged_and_attaches_its_contract() -> None:
    def add(a: int, b: int) -> int:
        """Add two numbers."""
        return a + b

    marked = function(add)

    assert marked is add
    assert marked(2, 3) == 5
    assert FunctionContract.from_function(add) is FunctionContract.from_function(add)
    assert FunctionContract.from_function(add).description == "Add two numbers."


def test_decorator_with_arguments_sets_name_and_description() -> None:
    @function(name="sum_numbers", description="Sum.")
    def add(a: int, b: int) -> int:
        return a + b

    contract = FunctionContract.from_function(add)

    assert (contract.name, contract.description) == ("sum_numbers", "Sum.")
    assert FunctionContract.from_function(add, name="other").name == "other"


def test_marked_method_is_described_and_called_without_self() -> None:
    class Thermometer:
        def __init__(self, offset: int) -> None:
            self.offset = offset

        @function(name="read_temperature")
        def read(self, city: str) -> int:
            """Read the temperature."""
            return len(city) + self.offset

    described = PythonFunction.of(Thermometer(100).read)
    args, kwargs = described.bind('{"city": "Paris"}')

    assert described.contract.name == "read_temperature"
    assert described.contract.description == "Read the temperature."
    assert described.contract.parameters is not None
    assert list(described.contract.parameters["properties"]) == ["city"]
    assert described.fn(*args, **kwargs) == 105


def test_decorator_rejects_objects_without_attributes() -> None:
    class Tool:
        __slots__ = ()

        def __call__(self, a: int) -> int:
            return a

    with pytest.raises(TypeError, match="takes no attributes"):
        function(name="tool")(Tool())


def test_callable_object_is_described_from_its_call_method() -> None:
    class Tool:
        def __call__(self, a: int, flag: bool = False) -> int:
            return a

    contract = FunctionContract.from_function(Tool(), name="tool")

    assert contract.parameters is not None
    assert contract.parameters["properties"] == {
        "a": {"type": "integer"},
        "flag": {"default": False, "type": "boolean"},
    }


def _positional_only(a: int, /, b: str, *, c: bool = False) -> None:
    return None


def _shadowing(model_config: str, json: int = 0) -> None:
    return None


BINDINGS = {
    "keywords_and_defaults": (
        get_weather,
        '{"city": "Paris"}',
        [],
        {"city": "Paris", "unit": Unit.CELSIUS, "days": None},
    ),
    "enum_from_value": (
        get_weather,
        '{"city": "P", "unit": "fahrenheit", "days": 2}',
        [],
        {"city": "P", "unit": Unit.FAHRENHEIT, "days": 2},
    ),
    "empty_string_is_no_arguments": (now, "", [], {}),
    "positional_only_passed_by_position": (
        _positional_only,
        '{"a": 1, "b": "x"}',
        [1],
        {"b": "x", "c": False},
    ),
    "nested_models_validated": (
        plan_trip,
        '{"stops": [{"city": "Lyon"}], "travellers": [{"name": "Ann"}], "budget": 10}',
        [],
        {
            "stops": [Stop(city="Lyon")],
            "travellers": [Traveller("Ann")],
            "budget": 10.0,
            "mode": "train",
        },
    ),
    "names_that_shadow_basemodel_attributes": (
        _shadowing,
        '{"model_config": "m", "json": 2}',
        [],
        {"model_config": "m", "json": 2},
    ),
}


@pytest.mark.parametrize(
    ("fn", "arguments", "args", "kwargs"), BINDINGS.values(), ids=BINDINGS.keys()
)
def test_bind_validates_and_splits_arguments(
    fn: Callable[..., Any], arguments: str, args: list[Any], kwargs: dict[str, Any]
) -> None:
    assert PythonFunction.of(fn).bind(arguments) == (args, kwargs)


BIND_ERRORS = {
    "invalid_json": (
        '{"city": ',
        "Invalid JSON arguments for function 'get_weather': Expecting value",
    ),
    "json_array_not_object": ('["Paris"]', "must be a JSON object, got an array"),
    "json_string_not_object": ('"Paris"', "must be a JSON object, got a string"),
    "missing_argument_named": (
        "{}",
        "Invalid arguments for function 'get_weather': city: Field required",
    ),
    "wrong_type_named_with_value": ('{"city": 3}', "city: Input should be a valid string (got 3)"),
    "bad_enum_value_named": (
        '{"city": "P", "unit": "kelvin"}',
        "unit: Input should be 'celsius' or 'fahrenheit' (got \"kelvin\")",
    ),
    "unexpected_argument_named": ('{"city": "P", "country": "FR"}', "country: unexpected argument"),
    "long_value_cut_short": (
        '{"city": "P", "days": "' + "9x" * 50 + '"}',
        '(got "9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x...)',
    ),
}


@pytest.mark.parametrize(("arguments", "message"), BIND_ERRORS.values(), ids=BIND_ERRORS.keys())
def test_bind_errors_name_the_problem(arguments: str, message: str) -> None:
    with pytest.raises(ArgumentsError) as caught:
        PythonFunction.of(get_weather).bind(arguments)

    assert message in str(caught.value)


def test_nested_error_location_is_a_dotted_path() -> None:
    with pytest.raises(ArgumentsError, match=r"stops\.0\.city: Field required"):
        PythonFunction.of(plan_trip).bind('{"stops": [{}], "travellers": [], "budget": 1}')


def test_combine_functions_keeps_order_and_first_of_a_name() -> None:
    from llmbridge._functions import combine_functions

    a1, b, a2, c = (
        FunctionContract("a", "first"),
        FunctionContract("b"),
        FunctionContract("a", "second"),
        FunctionContract("c"),
    )
    assert combine_functions([a1, b], None, [a2, c]) == [a1, b, c]
    assert combine_functions() == []
