# v-factorization.gp - written by akm from the CSV files in this folder.
# Re-render v-factorization.png and v-factorization.svg from inside this folder:  gnuplot v-factorization.gp
set datafile separator ','
set datafile missing NaN
set title 'T17 AdamW v̂_{ij} at t = 400 vs E[δ_i^2]E[x_j^2]'
set xlabel 'E[δ_i^2] Σ_{jj}  (factorized prediction)'
set ylabel 'measured E[v̂_{ij}]'
set logscale x
set logscale y
set grid
set key outside top left horizontal
set key inside top left vertical
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'v-factorization.png'
plot 'data_v.csv' every ::1 using 6:(strcol(1) eq 'dependent/t=400' ? $7 : NaN) with points pt 7 ps 0.8 title 'dependent: Isserlis E[δ_i^2]Σ_{jj}+2E[δ_ix_j]^2', \
     'data_v.csv' every ::1 using 6:(strcol(1) eq 'indep-Sigma/t=400' ? $8 : NaN):9 with yerrorbars pt 7 ps 0.8 title 'δ ⟂ x, Σ', \
     'data_v.csv' every ::1 using 6:(strcol(1) eq 'indep-Sigma-rotated/t=400' ? $8 : NaN):9 with yerrorbars pt 7 ps 0.8 title 'δ ⟂ x, Σ'' = RΣR^T (same diagonal)', \
     'data_v.csv' every ::1 using 6:(strcol(1) eq 'dependent/t=400' ? $8 : NaN):9 with yerrorbars pt 7 ps 0.8 title 'δ = Ax + σξ (dependent)', \
     x title 'factorized E[δ_i^2]E[x_j^2]' lw 2 lc rgb 'gray40'
set terminal svg size 900,600 dynamic enhanced
set output 'v-factorization.svg'
replot
unset output
