// Package adapters is the module that holds Vetted's driven adapters: one
// sub-package per technology, each implementing interfaces from package ports.
package adapters
