"""A documented synopsis ("pokectl list [--page N] [--images]") as commands a test can run:
the bare form and the form with every optional part, each placeholder (POKEMON, N, FILE …)
given a value the mock's service has, and each alternative of "a|b|c" in turn."""
import re

# A placeholder's value by the option before it, else by its own name. @TMP@ is the test's
# scratch directory (docs-test.sh fills it in).
BY_OPTION = {
    "--page": "2", "--per-page": "20", "--limit": "5", "--gen": "1", "--count": "1", "--width": "40", "--height": "10", "--wait": "0",
    "--shiny-chance": "1/64", "--image-protocol": "auto", "--type": "fire", "--output": "@TMP@/widget-output",
    "--open": "pikachu", "--language": "de",
}
BY_NAME = {"POKEMON": "pikachu", "QUERY": "char", "T": "fire", "FILE": "@TMP@/widget-output", "CODE": "de",
           "ID": "25", "NAME": "pikachu", "N": "2", "P": "auto", "SECONDS": "0",
           # The mock's Pokémon learn its moves 1–24 in scarlet-violet; move 3 by level-up.
           "GAME": "scarlet-violet", "MOVE": "move-3"}


def _mask_quotes(cmd):
    quoted = []

    def keep(m):
        quoted.append(m.group(0))
        return f"\x00{len(quoted) - 1}\x00"
    return re.sub(r"'[^']*'|\"[^\"]*\"", keep, cmd), quoted


def _unmask(cmd, quoted):
    return re.sub(r"\x00(\d+)\x00", lambda m: quoted[int(m.group(1))], cmd)


def _fill(cmd):
    """Each placeholder: the value for the option before it, else for its name."""
    words = cmd.split(" ")
    for i, w in enumerate(words):
        if re.fullmatch(r"[A-Z][A-Z_]*", w) and w in BY_NAME:
            before = words[i - 1] if i else ""
            words[i] = BY_OPTION.get(before, BY_NAME[w])
    return " ".join(words)


def _alternatives(cmd):
    """One command per alternative of the "a|b|c" words, all of them stepping together."""
    alts = re.findall(r"(?<![|\w-])([a-z][\w/-]*(?:\|[a-z][\w/-]*)+)(?![|\w])", cmd)
    if not alts:
        return [cmd]
    count = max(len(a.split("|")) for a in alts)
    forms = []
    for i in range(count):
        form = cmd
        for a in alts:
            choices = a.split("|")
            form = form.replace(a, choices[i % len(choices)], 1)
        forms.append(form)
    return forms


def expand(cmd):
    masked, quoted = _mask_quotes(cmd)
    masked = re.sub(r"\](\.\.\.|…)", "]", masked)
    if "[" in masked and "|" not in masked.split("[")[0].split("pokectl")[0]:
        bare = re.sub(r"\s*\[[^\]]*\]", "", masked)
        full = re.sub(r"\[([^\]]*)\]", r"\1", masked)
        forms = [bare] + ([full] if full != bare else [])
    else:
        forms = [masked]
    result = []
    for form in forms:
        for alt in _alternatives(_fill(form)):
            alt = _unmask(re.sub(r"\s+", " ", alt).strip(), quoted)
            if alt not in result:
                result.append(alt)
    return result
