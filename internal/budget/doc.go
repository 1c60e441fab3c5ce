// Package budget measures a client's budgets as numbers, by bisection over
// runs of the real client: how long it waits for a server still starting
// before its first model request (the wait budget) and what it does past
// it, and whether a server that connects late reaches a later request.
// A fixed probe ("held 3 s: does not wait") says which side of one value a
// client is on; a budget says where the edge is, to a stated resolution,
// so that a release that moves it is a change point and a run that lands
// on either side by chance is not.
//
// Search bisects any monotone budget over a range (Bisect); a Kind says
// what one budget varies, how a run is read, and its resolution.
package budget
