"""Camera frames -> marker corners and centres in pixels; tracking; the simulator."""
