"""Quiz and interview prep: the question bank, generated questions, scoring, review scheduling, persistence."""
