// This file only keeps the Go tool out of the console's Node sources and
// node_modules (a directory with its own go.mod is not part of the apps
// module). The built console lands in ../dist, which apps/console embeds.
module github.com/vetted-dev/vetted/apps/console/ui

go 1.26
