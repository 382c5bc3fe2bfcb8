// Package apps is the module that holds Vetted's runnable applications: the
// HTTP API, the worker and the vetted command that wires adapters into the core.
package apps
