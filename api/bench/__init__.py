"""The benchmarks behind `arbitre bench`: rules questions, vision, the server under load."""
