#!/bin/bash
# pokectl, then what a shell would read next on the same terminal: one line, printed as
# LEFT[line]. A terminal's late answer that pokectl left unread shows up in it (and echoed).
pokectl "$@"
IFS= read -r -t 5 line
printf 'LEFT[%s]\n' "$line"
