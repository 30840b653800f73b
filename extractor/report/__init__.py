"""The static HTML report: per-site figures and every page with its blocks painted."""
