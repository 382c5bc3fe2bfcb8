package api

import "github.com/go-chi/chi/v5"

// The routes of the directory, assessments, documents, subscribers and mail
// links are registered here until their own files land.

func (s *Server) registerVendors()           {}
func (s *Server) registerAssessments()       {}
func (s *Server) registerDocuments()         {}
func (s *Server) registerSubscribers()       {}
func (s *Server) registerLinks(r chi.Router) { _ = r }
