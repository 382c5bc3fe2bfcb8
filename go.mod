module github.com/vetted-dev/vetted

go 1.26.0

require github.com/google/uuid v1.6.0

require golang.org/x/text v0.42.0
