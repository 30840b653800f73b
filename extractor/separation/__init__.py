"""The method that separates a post from its comments: the steps in order (steps.py), one output
assembly (method.py), run on a set of pages or a page alone (context.py) or with a site profile
(profile.py). Imports core, comments and speedups."""
