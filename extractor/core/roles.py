"""The roles a block takes: the words the method, the comment records and the report all use.

Kept apart from the steps that assign them (separate.py) so that the comment modules and the
report name a role without importing a step of the method.
"""

POST = "post"
COMMENT = "comment"
BOILERPLATE = "boilerplate"
