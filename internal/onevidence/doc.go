// Package onevidence holds the test that one evidence gives one verdict (issue 27): the same
// captured host read by doctor (the capture as a .txtar and as a directory), by a recording
// made from it, as a live window in which nothing moved, by serve's collector (its first
// scrape and a later one), by watch's live view and by `headroom check`, compared finding by
// finding.
package onevidence
