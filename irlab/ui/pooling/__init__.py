"""The pooling lab page (pages/pooling.py): pool a class's runs, judge the pool, see the ranking move."""
