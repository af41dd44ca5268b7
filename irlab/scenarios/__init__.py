"""Scenarios as data: the cats-in-boxes walkthrough (eight pictures, four queries, their
judgments and rankings) and the original SVG pictures with their text alternatives."""
