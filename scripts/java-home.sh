#!/bin/sh
# Prints the JDK to build with: $JAVA_HOME if set, else Debian's JDK 17,
# else the JDK of the javac on PATH.
if [ -n "$JAVA_HOME" ]; then echo "$JAVA_HOME"; exit 0; fi
arch=$(dpkg --print-architecture 2>/dev/null || echo amd64)
for d in /usr/lib/jvm/java-17-openjdk-$arch /usr/lib/jvm/java-17-openjdk; do
  if [ -x "$d/bin/javac" ]; then echo "$d"; exit 0; fi
done
j=$(command -v javac 2>/dev/null) && dirname "$(dirname "$(readlink -f "$j")")"
