# contraction-rotated.gp - written by akm from the CSV files in this folder.
# Re-render contraction-rotated.png and contraction-rotated.svg from inside this folder:  gnuplot contraction-rotated.gp
set datafile separator ','
set datafile missing NaN
set title 'T17 AK contraction under Σ'' = RΣR^T: β̃_i^k along R u_i, a mixture along the old u_i'
set xlabel 'lag k'
set ylabel 'E[w^T P_k w],  P_k = Π(βI − η x̂x̂^T)'
set logscale y
set grid
set key outside top left horizontal
set yrange [1e-3:1.2]
set key bottom left
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'contraction-rotated.png'
plot 'data_contraction.csv' every ::1 using 5:(strcol(1) eq 'rot/rotated/u1' ? $7 : NaN):8 with yerrorbars pt 7 ps 0.8 title 'w = R u1 (rotated)', \
     'data_contraction.csv' every ::1 using 5:(strcol(1) eq 'rot/rotated/u1' ? $6 : NaN) with lines lw 2 title 'β̃^k = (0.632)^k', \
     'data_contraction.csv' every ::1 using 5:(strcol(1) eq 'rot/old/u1' ? $7 : NaN):8 with yerrorbars pt 7 ps 0.8 title 'w = u1 (old)', \
     'data_contraction.csv' every ::1 using 5:(strcol(1) eq 'rot/old/u1' ? $6 : NaN) with lines lw 2 title 'mixture Σ_l (u_i^TRu_l)^2 β̃_l^k', \
     'data_contraction.csv' every ::1 using 5:(strcol(1) eq 'rot/rotated/u3' ? $7 : NaN):8 with yerrorbars pt 7 ps 0.8 title 'w = R u3 (rotated)', \
     'data_contraction.csv' every ::1 using 5:(strcol(1) eq 'rot/rotated/u3' ? $6 : NaN) with lines lw 2 title 'β̃^k = (0.891)^k', \
     'data_contraction.csv' every ::1 using 5:(strcol(1) eq 'rot/old/u3' ? $7 : NaN):8 with yerrorbars pt 7 ps 0.8 title 'w = u3 (old)', \
     'data_contraction.csv' every ::1 using 5:(strcol(1) eq 'rot/old/u3' ? $6 : NaN) with lines lw 2 title 'mixture Σ_l (u_i^TRu_l)^2 β̃_l^k', \
     0.9**x title 'EMA / AdamW first moment β^k' lc rgb 'gray40' dt 2
set terminal svg size 900,600 dynamic enhanced
set output 'contraction-rotated.svg'
replot
unset output
