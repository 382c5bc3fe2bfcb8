module github.com/vetted-dev/vetted/examples

go 1.26.0

require github.com/vetted-dev/vetted v0.0.0

replace github.com/vetted-dev/vetted => ../

require github.com/vetted-dev/vetted/adapters v0.0.0

require github.com/google/uuid v1.6.0 // indirect

replace github.com/vetted-dev/vetted/adapters => ../adapters
