"""The hall's HTTP and WebSocket routes, one :class:`fastapi.APIRouter` per concern, composed by
:func:`majiang.hall.app.create_app`.  Handlers reach the hall through :func:`.deps.get_hall`
(``app.state.hall``, set by the app's lifespan)."""
