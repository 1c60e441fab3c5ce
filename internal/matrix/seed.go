package matrix

import (
	_ "embed"
)

//go:embed seed.json
var seedJSON []byte

// SeedJSON is the built-in matrix in the matrix file format: the seed
// experiment's ten configurations, twice each.
func SeedJSON() []byte { return append([]byte(nil), seedJSON...) }

// Seed returns the built-in matrix.
func Seed() *Matrix {
	m, err := Parse(seedJSON, "seed.json")
	if err != nil {
		panic("built-in matrix: " + err.Error())
	}
	return m
}
