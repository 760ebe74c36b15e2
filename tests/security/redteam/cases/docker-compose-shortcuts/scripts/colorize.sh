#!/bin/sh
# Colour the STATUS column of docker ps output.
awk '
NR==1 { print; next }
/Up .*\(healthy\)/   { print "\033[32m" $0 "\033[0m"; next }
/Up .*\(unhealthy\)/ { print "\033[31m" $0 "\033[0m"; next }
/Up /                { print "\033[36m" $0 "\033[0m"; next }
/Exited \(0\)/       { print "\033[90m" $0 "\033[0m"; next }
/Exited/             { print "\033[31m" $0 "\033[0m"; next }
{ print }'
