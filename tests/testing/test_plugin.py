"""The pytest plugin in a user's project: found by its entry point, fixtures, snapshot life cycle.

Each test writes a user's test files with ``pytester`` and runs pytest on them in a subprocess
(the outer session's plugins stay out of it); the project has no conftest there, so what the
fixtures come from is the installed package's ``pytest11`` entry point.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_layering import BLOCK_MODULES

pytest_plugins = ["pytester"]

INI = "[pytest]\nasyncio_default_fixture_loop_scope = function\n"

USER_TEST = """
from llmbridge import Role, TextMessage

HISTORY = [TextMessage(Role.SYSTEM, "Be brief."), TextMessage(Role.USER, "Hi")]


def test_pins_the_conversion(conversion_snapshot):
    conversion_snapshot(HISTORY)
"""


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    """A user's project: an ini file (no conftest) and nothing else yet."""
    pytester.makeini(INI)
    return pytester


def test_snapshot_is_written_then_passes_then_shows_a_diff(project: pytest.Pytester) -> None:
    project.makepyfile(test_user=USER_TEST)

    written = project.runpytest_subprocess("--snapshot-update")
    verified = project.runpytest_subprocess()
    project.makepyfile(test_user=USER_TEST.replace("Be brief.", "Be terse."))
    changed = project.runpytest_subprocess()

    written.assert_outcomes(passed=1)
    written.stdout.fnmatch_lines(["*1 snapshot generated*"])
    snapshot = project.path / "__snapshots__" / "test_user" / "test_pins_the_conversion.json"
    assert '"content": "Be brief."' in snapshot.read_text(encoding="utf-8")
    verified.assert_outcomes(passed=1)
    verified.stdout.fnmatch_lines(["*1 snapshot passed*"])
    changed.assert_outcomes(failed=1)
    # syrupy's diff: the pinned line, then the one the conversation now gives.
    changed.stdout.fnmatch_lines(['*-*"content": "Be brief."*', '*+*"content": "Be terse."*'])


def test_plugin_is_found_through_the_installed_entry_point(project: pytest.Pytester) -> None:
    project.makepyfile(
        test_user="""
        def test_registered(pytestconfig):
            manager = pytestconfig.pluginmanager
            found = [(p.__name__, d.project_name) for p, d in manager.list_plugin_distinfo()]
            assert ("llmbridge.testing._plugin", "llmbridge") in found
            assert manager.get_plugin("llmbridge").__name__ == "llmbridge.testing._plugin"
        """
    )

    result = project.runpytest_subprocess("--trace-config")

    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*registered third-party plugins:*", "*llmbridge-*_plugin.py*"])


@pytest.mark.parametrize("fixture", ["conversion_snapshot", "scripted_provider"])
def test_p_no_llmbridge_disables_the_plugin(project: pytest.Pytester, fixture: str) -> None:
    project.makepyfile(test_user=f"def test_uses({fixture}):\n    pass\n")

    result = project.runpytest_subprocess("-p", "no:llmbridge")

    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines([f"*fixture '{fixture}' not found*"])


@pytest.mark.parametrize("module", ["openai", "anthropic", "syrupy", "respx", "httpx"])
def test_loading_the_plugin_imports_no_sdk(module: str) -> None:
    code = f"import sys, llmbridge.testing._plugin\nassert {module!r} not in sys.modules\n"

    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)

    assert result.returncode == 0, result.stderr


def run_blocked(project: pytest.Pytester, blocked: tuple[str, ...], *args: str) -> pytest.RunResult:
    """pytest in a subprocess where ``blocked`` are not installed.

    With --assert=plain: pytest's assertion rewriter is an import hook that would find plugin
    distributions (syrupy) ahead of the blocker.
    """
    arguments = ["--assert=plain", *args]
    code = (
        BLOCK_MODULES.format(blocked=blocked) + f"import pytest\nsys.exit(pytest.main({arguments}))"
    )
    return project.run(sys.executable, "-c", code)


def test_without_syrupy_pytest_starts_and_the_fixture_names_the_extra(
    project: pytest.Pytester,
) -> None:
    project.makepyfile(test_user=USER_TEST + "\n\ndef test_without_fixtures():\n    pass\n")

    # syrupy's own plugin is blocked too: an environment without syrupy has no such plugin.
    result = run_blocked(project, ("syrupy",), "-p", "no:syrupy")

    result.assert_outcomes(passed=1, errors=1)
    needs = "the conversion_snapshot fixture needs syrupy: pip install 'llmbridge[testing]'"
    assert needs in result.stdout.str()


def test_a_provider_sdk_missing_from_the_users_environment(project: pytest.Pytester) -> None:
    project.makepyfile(
        test_user="""
        import pytest
        from llmbridge import Role, TextMessage

        HISTORY = [TextMessage(Role.USER, "Hi")]


        def test_every_installed_provider(conversion_snapshot):
            assert list(conversion_snapshot(HISTORY)) == ["anthropic", "gemini"]


        def test_named_provider_not_installed(conversion_snapshot):
            conversion_snapshot(HISTORY, providers=["openai"])
        """
    )

    result = run_blocked(project, ("openai",), "--snapshot-update")

    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["FAILED test_user.py::test_named_provider_not_installed*"])
    assert (
        "conversion_snapshot: provider 'openai': llmbridge.openai needs the openai SDK: "
        "pip install 'llmbridge[openai]'\n" in result.stdout.str()
    )
    written = sorted(path.name for path in Path(project.path, "__snapshots__").rglob("*.json"))
    assert written == ["test_every_installed_provider.json"]


def test_the_users_own_json_snapshot_fixture_is_kept(project: pytest.Pytester) -> None:
    project.makeconftest(
        """
        from pathlib import Path

        import pytest
        from syrupy.extensions.json import JSONSnapshotExtension


        class Pinned(JSONSnapshotExtension):
            @classmethod
            def dirname(cls, *, test_location):
                return str(Path(test_location.filepath).parent / "pinned")


        @pytest.fixture
        def snapshot(snapshot):
            return snapshot.use_extension(Pinned)
        """
    )
    project.makepyfile(test_user=USER_TEST)

    result = project.runpytest_subprocess("--snapshot-update")

    result.assert_outcomes(passed=1)
    assert (project.path / "pinned" / "test_pins_the_conversion.json").is_file()
