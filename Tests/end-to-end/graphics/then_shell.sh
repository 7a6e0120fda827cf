#!/bin/bash
# pokectl, then what a shell would read next on the same terminal: one line, printed as
# LEFT[line]. A terminal's late answer that pokectl left unread shows up in it (and echoed).
# "SHELL> " marks where pokectl ended, for the keys typed after it (fake_terminal.py --keys-on).
pokectl "$@"
printf 'SHELL> '
IFS= read -r -t 5 line
printf 'LEFT[%s]\n' "$line"
