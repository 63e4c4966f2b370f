from django.urls import path

from . import views, views_bring, views_exchange, views_figures, views_night

app_name = "history"

urlpatterns = [
    path("", views.archive, name="archive"),
    path("abandoned/", views.abandoned, name="abandoned"),
    path("plays/<slug:table_id>/", views.play, name="play"),
    path("plays/<slug:table_id>/replay/", views.replay_step, name="replay"),
    path("plays/<slug:table_id>/resume/", views.resume, name="resume"),
    path("nights/", views_night.tonight, name="tonight"),
    path("nights/<str:day>/", views_night.night_page, name="night"),
    path("nights/<str:day>/card.png", views_night.night_png, name="night_card"),
    path("players/", views_figures.players, name="players"),
    path("players/<int:player_id>/", views_figures.player, name="player"),
    path("players/<int:player_id>/games/", views_figures.player_games_page, name="player_games"),
    path("players/<int:player_id>/opponents/", views_figures.player_opponents_page, name="player_opponents"),
    path("players/<int:player_id>/rename/", views.rename_player, name="rename"),
    path("players/<int:player_id>/merge/", views.merge_player, name="merge"),
    path("games/", views_figures.games, name="games"),
    path("games/<path:slug>/", views_figures.game, name="game"),  # a pad's game: "any-game:carcassonne"
    path("ratings/<path:slug>/", views_figures.game_ratings, name="game_ratings"),
    path("export.json", views_exchange.export_json, name="export_json"),
    path("plays.csv", views_exchange.export_csv, name="export_csv"),
    path("import/", views_exchange.import_json, name="import"),
    path("bring/", views_bring.bring, name="bring"),
    path("bring/<uuid:job_id>/", views_bring.bring_job, name="bring_job"),
    path("bring/<uuid:job_id>/progress/", views_bring.bring_progress, name="bring_progress"),
    path("bgstats.json", views_bring.export_bgstats, name="export_bgstats"),
]
