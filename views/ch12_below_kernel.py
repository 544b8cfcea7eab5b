from rocm_bridge.ui.chapter import render_chapter

render_chapter("ch12")
