"""Layer 4, notebook views: matplotlib figures and ipywidgets boards and explorers."""
