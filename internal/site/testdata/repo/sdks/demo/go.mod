module example.com/guide/sdks/demo

go 1.26.0

require (
	example.com/other v0.1.0
	example.com/sdk v1.2.3
)
