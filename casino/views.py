from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tables.models import Table


def home(request: HttpRequest) -> HttpResponse:
    tables = Table.objects.filter(owner__isnull=True)
    return render(request, "home.html", {"tables": tables})
