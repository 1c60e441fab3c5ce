// Package evidence owns the layout of instrlab's evidence on disk: the
// files of one run's directory (RunDir) and of the output directory a
// matrix run writes (OutDir). Every writer and reader names a file
// through these types, so each name is spelled once; a client's own files
// under its HOME are named by its client package, relative to RunDir.Home.
package evidence
