"""Running published Persona Desktop images: pull (pull-image), run (run-image), episodes (run-task)."""
