// Package examples shows how another Go program embeds Vetted's core.
package examples
