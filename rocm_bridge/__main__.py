from rocm_bridge.cli import main

raise SystemExit(main())
