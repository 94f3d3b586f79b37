"""How arena reads a bot's command line: which word is the program, which is the file an interpreter
runs, which are class paths, inline code or module names. Standard library only (the Ray backend
reads commands on its workers with it too).

:func:`word_roles` gives each word of ``shlex.split(command)`` a :class:`Role`:

- ``PROGRAM``: the first word, and the program a known wrapper runs (``env X=1 python3 ...``,
  ``nice``, ``stdbuf -oL``, ``timeout 60``). It must exist: found on ``PATH`` or, with a ``/``, a file.
- ``SCRIPT``: the file a known interpreter runs (``python3 bot.py``, ``node --flag bot.js``,
  ``java -jar x.jar``, ``java Bot.java``, ``dotnet bot.dll``, ``sh bot.sh``). It must exist.
- ``PATH_LIST``: the value of a class or module path option (``java -cp classes:lib/*``), a list of
  paths separated by ``:`` (:func:`path_list_items`); missing entries are the JVM's business.
- ``CODE``: inline code (``python3 -c``, ``node -e``, ``sh -c``, ``perl -e``); ``NAME``: a module or
  class, not a file (``python3 -m package.bot``, ``java -cp build Main``).
- ``OPTION``: an option of a known interpreter or wrapper, or its value; ``ARG``: any other word,
  passed to the bot as it is (a word with a ``/`` or a ``:`` is not a file because it looks like one).

Every known interpreter is one row of :data:`INTERPRETERS`, and every wrapper one row of
:data:`WRAPPERS`: the only place that says how a program takes its script.
"""

from __future__ import annotations

import enum
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass


class Role(enum.Enum):
    """What a word of a bot's command is (see the module docstring)."""

    PROGRAM = "program"
    SCRIPT = "script"
    PATH_LIST = "path list"
    CODE = "code"
    NAME = "name"
    OPTION = "option"
    ARG = "arg"


def _words(*words: str) -> frozenset[str]:
    return frozenset(words)


@dataclass(frozen=True)
class Interpreter:
    """How one interpreter takes its script.

    Options in ``value_options`` take the next word as their value; after one of ``code_options``
    (the next word is code), ``name_options`` (a module or class name) or ``script_options`` (the
    script: ``java -jar``, ``php -f``) no script follows. ``path_list_options`` take a ``:``-separated
    list of paths. With ``clusters`` single-letter options may be grouped getopt-style (``-uc CODE``,
    ``-Wignore``). The first word that is not an option is the script, unless ``suffixes`` is given:
    then only a word ending in one of them is (``java Bot.java``), and another word gets the role
    ``other_operand`` (``java Main``: a class name; ``dotnet run``: a plain word). ``subcommands`` are
    words skipped before the script (``dotnet exec bot.dll``).
    """

    value_options: frozenset[str] = frozenset()
    code_options: frozenset[str] = frozenset()
    name_options: frozenset[str] = frozenset()
    script_options: frozenset[str] = frozenset()
    path_list_options: frozenset[str] = frozenset()
    clusters: bool = False
    suffixes: tuple[str, ...] = ()
    other_operand: Role = Role.NAME
    subcommands: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Wrapper:
    """A program that runs another one (its command follows its own options): options in
    ``value_options`` take the next word; ``operands`` words come before the program (``timeout
    DURATION``); with ``assignments`` ``NAME=VALUE`` words do too (``env``). After one of
    ``stop_options`` (``env -C DIR``, ``env -S STRING``) the rest is not read."""

    value_options: frozenset[str] = frozenset()
    operands: int = 0
    assignments: bool = False
    stop_options: frozenset[str] = frozenset()


_PYTHON = Interpreter(value_options=_words("-W", "-X", "--check-hash-based-pycs"), code_options=_words("-c"),
                      name_options=_words("-m"), clusters=True)
_SHELL = Interpreter(value_options=_words("-o", "+o", "-O", "+O"), code_options=_words("-c"), clusters=True)
_NODE = Interpreter(
    value_options=_words("-r", "--require", "--import", "--loader", "--experimental-loader", "-C", "--conditions",
                         "--title", "--env-file", "--input-type", "--disable-warning", "--redirect-warnings"),
    code_options=_words("-e", "--eval", "-p", "--print"))
_JAVA = Interpreter(
    value_options=_words("--add-modules", "--add-opens", "--add-exports", "--add-reads", "--patch-module",
                         "--enable-native-access", "--limit-modules"),
    name_options=_words("-m", "--module"), script_options=_words("-jar"),
    path_list_options=_words("-cp", "-classpath", "--class-path", "-p", "--module-path", "--upgrade-module-path"),
    suffixes=(".java",))
_DOTNET = Interpreter(
    value_options=_words("--depsfile", "--runtimeconfig", "--additionalprobingpath", "--additional-deps",
                         "--fx-version", "--roll-forward"),
    suffixes=(".dll", ".exe"), other_operand=Role.ARG, subcommands=_words("exec"))
_LUA = Interpreter(value_options=_words("-l"), code_options=_words("-e"))

#: Every interpreter arena knows, by program name (a path's last part; a version suffix such as
#: ``python3.12``, ``lua5.4`` or ``php8.2`` is ignored).
INTERPRETERS: dict[str, Interpreter] = {
    "python": _PYTHON, "pypy": _PYTHON,
    "node": _NODE, "nodejs": _NODE,
    "sh": _SHELL, "bash": _SHELL, "dash": _SHELL, "zsh": _SHELL, "ksh": _SHELL, "mksh": _SHELL, "ash": _SHELL,
    "java": _JAVA,
    "dotnet": _DOTNET,
    "mono": Interpreter(),
    "perl": Interpreter(value_options=_words("-I", "-M", "-m"), code_options=_words("-e", "-E"), clusters=True),
    "ruby": Interpreter(value_options=_words("-I", "-r", "-C", "-E"), code_options=_words("-e"), clusters=True),
    "php": Interpreter(value_options=_words("-c", "-d", "-z"), code_options=_words("-r"), script_options=_words("-f")),
    "lua": _LUA, "luajit": _LUA,
    "Rscript": Interpreter(code_options=_words("-e")),
    "julia": Interpreter(value_options=_words("-t", "--threads", "-p", "--procs", "-L", "--load", "-J", "--sysimage"),
                         code_options=_words("-e", "-E", "--eval", "--print")),
    "tclsh": Interpreter(), "wish": Interpreter(),
}  # fmt: skip

#: Programs that run the command that follows their options; it is read like a whole command.
WRAPPERS: dict[str, Wrapper] = {
    "env": Wrapper(value_options=_words("-u", "--unset"), assignments=True,
                   stop_options=_words("-C", "--chdir", "-S", "--split-string")),
    "nice": Wrapper(value_options=_words("-n", "--adjustment")),
    "stdbuf": Wrapper(value_options=_words("-i", "-o", "-e", "--input", "--output", "--error")),
    "timeout": Wrapper(value_options=_words("-s", "--signal", "-k", "--kill-after"), operands=1),
}

_VERSION = re.compile(r"[0-9][0-9.]*$")


def interpreter_of(program: str) -> Interpreter | None:
    """The :data:`INTERPRETERS` row of ``program`` (a name or a path), None for any other program."""
    name = os.path.basename(program)
    return INTERPRETERS.get(name) or INTERPRETERS.get(_VERSION.sub("", name))


def word_roles(words: Sequence[str]) -> list[Role]:
    """The :class:`Role` of each of ``words`` (a split command; the first is the program)."""
    roles = [Role.ARG] * len(words)
    if words:
        _read_command(words, 0, roles)
    return roles


def path_list_items(word: str) -> list[str]:
    """The paths of a ``PATH_LIST`` word, in order (empty entries kept, so joining with ``:`` gives
    the word back)."""
    return word.split(os.pathsep)


def _read_command(words: Sequence[str], start: int, roles: list[Role]) -> None:
    roles[start] = Role.PROGRAM
    wrapper = WRAPPERS.get(os.path.basename(words[start]))
    if wrapper is not None:
        _read_wrapper(words, start + 1, wrapper, roles)
        return
    interpreter = interpreter_of(words[start])
    if interpreter is not None:
        _read_interpreter(words, start + 1, interpreter, roles)


def _read_wrapper(words: Sequence[str], i: int, wrapper: Wrapper, roles: list[Role]) -> None:
    operands = wrapper.operands
    while i < len(words):
        word = words[i]
        if word == "--":
            roles[i] = Role.OPTION
            i += 1
            break
        if word.startswith("-") and word != "-":
            if word.split("=", 1)[0] in wrapper.stop_options:
                return
            roles[i] = Role.OPTION
            if word in wrapper.value_options and i + 1 < len(words):
                roles[i + 1] = Role.OPTION
                i += 1
        elif wrapper.assignments and "=" in word:
            roles[i] = Role.OPTION
        elif operands:
            roles[i] = Role.OPTION
            operands -= 1
        else:
            break
        i += 1
    if i < len(words):
        _read_command(words, i, roles)


def _read_interpreter(words: Sequence[str], i: int, interpreter: Interpreter, roles: list[Role]) -> None:
    while i < len(words):
        word = words[i]
        if word == "--":
            roles[i] = Role.OPTION
            if i + 1 < len(words):
                roles[i + 1] = _operand_role(words[i + 1], interpreter)
            return
        if word in interpreter.subcommands:
            i += 1
            continue
        if not (word.startswith("-") and word != "-") and word not in interpreter.value_options:
            roles[i] = _operand_role(word, interpreter)
            return
        roles[i] = Role.OPTION
        value_role, stops = _option(word, interpreter)
        if value_role is not None and i + 1 < len(words):
            roles[i + 1] = value_role
            i += 1
        if stops:
            return
        i += 1


def _operand_role(word: str, interpreter: Interpreter) -> Role:
    if word == "-":  # the script on stdin (stdin is the protocol's: a mistake, but not a file)
        return Role.ARG
    if interpreter.suffixes and not word.lower().endswith(interpreter.suffixes):
        return interpreter.other_operand
    return Role.SCRIPT


def _option(word: str, interpreter: Interpreter) -> tuple[Role | None, bool]:
    """(the role of the next word when ``word`` takes it as its value, else None; whether no script
    can follow ``word``)."""
    stopping = {**dict.fromkeys(interpreter.code_options, Role.CODE),
                **dict.fromkeys(interpreter.name_options, Role.NAME),
                **dict.fromkeys(interpreter.script_options, Role.SCRIPT)}
    if word in stopping:
        return stopping[word], True
    if word in interpreter.path_list_options:
        return Role.PATH_LIST, False
    if word in interpreter.value_options:
        return Role.OPTION, False
    if word.startswith("--"):
        # --eval=CODE, --module=NAME: the value is attached, and still no script follows.
        return None, word.split("=", 1)[0] in stopping
    if interpreter.clusters:
        for position, letter in enumerate(word[1:], start=1):
            option = "-" + letter
            attached = position + 1 < len(word)
            if option in stopping:
                return (None if attached else stopping[option]), True
            if option in interpreter.value_options:
                return (None if attached else Role.OPTION), False
    return None, False


__all__ = ["INTERPRETERS", "WRAPPERS", "Interpreter", "Role", "Wrapper", "interpreter_of", "path_list_items",
           "word_roles"]
