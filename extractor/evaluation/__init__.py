"""Evaluation against the labelled corpus: reading it, scoring as the corpus README defines, stress
variants and fixed-size subsets (`python -m extractor evaluate`)."""
