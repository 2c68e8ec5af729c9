# ===-- ast_dump.py - parse Python with CPython's ast, never execute it ----=== #
#
# Embedded into kevin (lib/Task/PythonAst.cpp) and run inside an isolated
# interpreter. kevin_dump(text, max_nodes, max_depth) parses `text` with
# ast.parse (which does not run the module) and returns a JSON string:
# {"module": <node>} on success, {"error": message, "line": n, "col": n} on a
# syntax error, and the same with "limit": "ast_nodes" or "nesting_depth" for
# a tree over one of kevin's limits (kevin/Task/CandidateLimits.h), at the
# first node past it. A MemoryError is raised to the caller.
# Nodes are objects with "_type", the positions "line",
# "col", "end_line", "end_col" (1-based lines, 0-based UTF-8 byte columns, as
# CPython reports them) and their fields. A str constant also carries "map":
# runs [decoded_byte_offset, line, byte_col] giving, for each byte of the
# decoded string, the position of the source character (or escape) that
# produced it, through escapes, raw strings and implicit concatenation.
#
# ===----------------------------------------------------------------------=== #
import ast
import io
import json
import sys
import tokenize

_SIMPLE_ESCAPES = {"\\": "\\", "'": "'", '"': '"', "a": "\a", "b": "\b",
                   "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}


def _clean(text):
    """Text with lone surrogates replaced, so that it is valid UTF-8."""
    return text.encode("utf-8", "replace").decode("utf-8")


def _byte_col(lines, line, char_col):
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return len(text[:char_col].encode("utf-8", "surrogatepass"))


def _char_col(lines, line, byte_col):
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return len(text.encode("utf-8", "surrogatepass")[:byte_col].decode("utf-8", "replace"))


def _string_map(lines, node):
    """Runs [decoded_offset, line, byte_col] for a str Constant, or None."""
    start_char = _char_col(lines, node.lineno, node.col_offset)
    end_char = _char_col(lines, node.end_lineno, node.end_col_offset)
    if node.lineno == node.end_lineno:
        segment = lines[node.lineno - 1][start_char:end_char]
    else:
        parts = [lines[node.lineno - 1][start_char:]]
        parts += lines[node.lineno:node.end_lineno - 1]
        parts.append(lines[node.end_lineno - 1][:end_char])
        segment = "\n".join(parts)
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO("(" + segment + ")").readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None
    runs = []
    out = 0
    expect = None  # (out, line, byte_col) that continues the current run

    def emit(line, char_col, text):
        nonlocal out, expect
        col = _byte_col(lines, line, char_col)
        if expect != (out, line, col):
            runs.append([out, line, col])
        size = len(_clean(text).encode("utf-8"))
        out += size
        expect = (out, line, col + size) if "\n" not in text else None

    for tok in tokens:
        if tok.type != tokenize.STRING:
            continue
        row, col = tok.start
        line = node.lineno + row - 1
        if row == 1:  # the first row carries the "(" added above
            col = col - 1 + start_char
        s = tok.string
        i = 0
        while s[i] not in "'\"":
            i += 1
        prefix = s[:i].lower()
        if "b" in prefix or "f" in prefix:
            return None
        raw = "r" in prefix
        quote = s[i:i + 3] if s[i:i + 3] in ('"""', "'''") else s[i]
        body = s[i + len(quote):len(s) - len(quote)]
        col += i + len(quote)
        j = 0
        while j < len(body):
            c = body[j]
            if c == "\n":
                emit(line, col, "\n")
                line += 1
                col = 0
                j += 1
                continue
            if raw or c != "\\" or j + 1 >= len(body):
                emit(line, col, c)
                col += 1
                j += 1
                continue
            n = body[j + 1]
            if n == "\n":
                line += 1
                col = 0
                j += 2
                continue
            if n in _SIMPLE_ESCAPES:
                emit(line, col, _SIMPLE_ESCAPES[n])
                col += 2
                j += 2
                continue
            length = 0
            if n in "01234567":
                length = 1
                while length < 3 and j + 1 + length < len(body) and body[j + 1 + length] in "01234567":
                    length += 1
                value = chr(int(body[j + 1:j + 1 + length], 8))
                length += 1
            elif n in "xuU":
                width = {"x": 2, "u": 4, "U": 8}[n]
                value = chr(int(body[j + 2:j + 2 + width], 16))
                length = 2 + width
            elif n == "N":
                close = body.index("}", j)
                value = ast.literal_eval('"' + body[j:close + 1] + '"')
                length = close + 1 - j
            else:
                emit(line, col, "\\")
                col += 1
                j += 1
                continue
            emit(line, col, value)
            col += length
            j += length
    return runs


# Leaves that stand for a token (`+`, `not`, a store context): not counted.
_TOKENS = (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)


def _over_limits(tree, max_nodes, max_depth):
    """The first node, in source order, past the node budget or the depth
    limit, as a "limit" reply at it (or at its nearest ancestor with a
    position); None when the tree is within both."""
    count = 0
    stack = [(tree, 1, tree)]
    while stack:
        node, depth, placed = stack.pop()
        if hasattr(node, "lineno"):
            placed = node
        count += 1
        if count > max_nodes:
            return _limit_reply("ast_nodes", placed, "the python tree has more than %d nodes" % max_nodes)
        if depth > max_depth:
            return _limit_reply("nesting_depth", placed,
                                "the python tree is nested more than %d levels deep" % max_depth)
        children = [c for c in ast.iter_child_nodes(node) if not isinstance(c, _TOKENS)]
        stack.extend((child, depth + 1, placed) for child in reversed(children))
    return None


def _limit_reply(key, node, message):
    return {"limit": key, "error": message, "line": getattr(node, "lineno", 1),
            "col": getattr(node, "col_offset", 0) + 1}


def _too_deep_line(text):
    """The first line at which the text becomes too deep for Python's parser
    (the shortest prefix of lines that raises RecursionError, by bisection)."""
    lines = text.splitlines(keepends=True)
    low, high = 1, max(len(lines), 1)
    while low < high:
        middle = (low + high) // 2
        try:
            ast.parse("".join(lines[:middle]))
            low = middle + 1
        except RecursionError:
            high = middle
        except (SyntaxError, ValueError):
            low = middle + 1
    return high


def _convert(node, lines):
    if isinstance(node, list):
        return [_convert(n, lines) for n in node]
    if not isinstance(node, ast.AST):
        if node is None or isinstance(node, (bool, int, float, str)):
            if isinstance(node, int) and not isinstance(node, bool) and abs(node) > 2 ** 62:
                return str(node)
            if isinstance(node, float) and node != node:
                return "nan"
            if isinstance(node, float) and node in (float("inf"), float("-inf")):
                return str(node)
            return _clean(node) if isinstance(node, str) else node
        return _clean(repr(node))
    out = {"_type": type(node).__name__}
    if hasattr(node, "lineno"):
        out["line"] = node.lineno
        out["col"] = node.col_offset
        out["end_line"] = node.end_lineno
        out["end_col"] = node.end_col_offset
    for name, value in ast.iter_fields(node):
        if name == "kind" and isinstance(node, ast.Constant):
            continue
        if name == "ctx":
            out["ctx"] = type(value).__name__
            continue
        if name == "value" and isinstance(node, ast.Constant):
            out["vtype"] = type(value).__name__
            if isinstance(value, str):
                out["value"] = _clean(value)
                out["map"] = _string_map(lines, node)
                continue
        out[name] = _convert(value, lines)
    return out


def kevin_dump(text, max_nodes, max_depth):
    try:
        tree = ast.parse(text, filename="<candidate>", type_comments=False)
    except SyntaxError as err:
        return json.dumps({"error": str(err.msg), "line": err.lineno or 1, "col": err.offset or 1})
    except RecursionError:
        return json.dumps({"limit": "nesting_depth", "line": _too_deep_line(text), "col": 1,
                           "error": "the code is nested too deeply for python's parser"})
    over = _over_limits(tree, max_nodes, max_depth)
    if over:
        return json.dumps(over)
    # Two frames per level (a node and its field's list), calls within
    # Python; the parser keeps the default limit, which bounds its C stack.
    default = sys.getrecursionlimit()
    sys.setrecursionlimit(min(max(default, 2 * max_depth + 100), 10000))
    try:
        module = _convert(tree, text.split("\n"))
    finally:
        sys.setrecursionlimit(default)
    return json.dumps({"module": module})
