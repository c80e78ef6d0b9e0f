// Command vouch is a terminal agent workbench for local models.
package main

func main() {}
