// Package picker owns the model picker (ctrl+o): a modal of the models the
// server offers, filtered as the person types, each with its context window
// and where that figure came from. It does no I/O: the root lists the
// models in a Cmd and hands the result in as a [ModelsMsg]; enter answers
// with kit.SelectModel, which the root applies.
package picker
