from memdesk.cli import main

raise SystemExit(main())
